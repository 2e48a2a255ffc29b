// Who holds the queue lock, told apart from a later process that got the same pid. A pid alone
// says nothing after a crash or a reboot: macOS and Windows reuse pids, and have no /proc. So the
// lock also records the boot it was taken in (Linux's boot id; elsewhere the boot time, from the
// uptime) and, where the OS gives it, when the process started (Linux: /proc; macOS: `ps`).
// Windows gives no start time without a slow PowerShell call: there a live pid from this boot
// is confirmed only by the holder's heartbeat on the lock file (queue-lock.ts), and the CLI
// bounds its wait for one it cannot confirm (see QueueLockedError.confirmed).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { MAC_PROGRAMS } from '../system-programs';

export interface ProcessProbe {
  /** This boot: `id:<boot id>` where the OS has one, else `t:<boot time, ms, to 10 s>`. */
  boot(): string;
  /** When `pid` started, as the OS writes it; undefined where the OS does not say. */
  startTime(pid: number): string | undefined;
  /** Some process has this pid now (perhaps not the one that had it before). */
  exists(pid: number): boolean;
}

export interface ProbeOptions {
  /** Where /proc is; tests point it at a missing folder to see what macOS and Windows see. */
  procRoot?: string;
  platform?: NodeJS.Platform;
}

/** The boot time moves with clock corrections; a lock this much older is from another boot. */
const BOOT_SLACK_MS = 5 * 60_000;

function procStartTime(procRoot: string, pid: number): string | undefined {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function psStartTime(pid: number): string | undefined {
  try {
    // In UTC and the C locale, so a time-zone or language change does not make the owner a
    // stranger.
    const out = execFileSync(MAC_PROGRAMS.ps, ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    const start = out.trim().replace(/\s+/g, '_');
    return start === '' ? undefined : start;
  } catch {
    return undefined;
  }
}

export function processProbe(opts: ProbeOptions = {}): ProcessProbe {
  const procRoot = opts.procRoot ?? '/proc';
  const platform = opts.platform ?? process.platform;
  // Our own start time never changes: asked once (on macOS it costs a `ps`).
  let ownStart: { value: string | undefined } | undefined;
  const startTime = (pid: number): string | undefined => {
    const fromProc = procStartTime(procRoot, pid);
    if (fromProc !== undefined) return fromProc;
    return platform === 'darwin' ? psStartTime(pid) : undefined;
  };
  return {
    boot() {
      try {
        const id = readFileSync(`${procRoot}/sys/kernel/random/boot_id`, 'utf8').trim();
        if (id) return `id:${id}`;
      } catch {
        // no /proc: the boot time instead
      }
      return `t:${Math.round((Date.now() - uptime() * 1000) / 10_000) * 10_000}`;
    },
    startTime(pid) {
      if (pid !== process.pid) return startTime(pid);
      ownStart ??= { value: startTime(pid) };
      return ownStart.value;
    },
    exists(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
  };
}

export interface Identity {
  pid: number;
  start?: string;
  boot?: string;
  /** When the lock was taken (epoch ms). */
  since?: number;
}

export function ownIdentity(probe: ProcessProbe, now = Date.now()): Identity {
  const start = probe.startTime(process.pid);
  return { pid: process.pid, ...(start ? { start } : {}), boot: probe.boot(), since: now };
}

/** `PID START BOOT SINCE` (START is `-` when unknown); earlier versions wrote `PID [START]`. */
export function formatIdentity(id: Identity): string {
  return [id.pid, id.start ?? '-', id.boot ?? '-', id.since ?? '-'].join(' ');
}

export function parseIdentity(text: string): Identity | undefined {
  const [pidText, start, boot, since] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const sinceMs = Number(since);
  return {
    pid,
    ...(start && start !== '-' ? { start } : {}),
    ...(boot && boot !== '-' ? { boot } : {}),
    ...(since && Number.isFinite(sinceMs) ? { since: sinceMs } : {}),
  };
}

/** True when `then` names a boot before `now`; false when it is the same or cannot be told. */
function earlierBoot(then: string, now: string): boolean {
  if (then.startsWith('id:') && now.startsWith('id:')) return then !== now;
  if (then.startsWith('t:') && now.startsWith('t:')) {
    return Number(now.slice(2)) - Number(then.slice(2)) > BOOT_SLACK_MS;
  }
  return false;
}

/**
 * gone: no process has the pid, or the one that has it is not the owner (another boot, another
 * start time). confirmed: the owner itself is running. unconfirmed: a process has the pid and
 * the OS gives no way to tell whether it is the owner.
 */
export type Verdict = 'gone' | 'confirmed' | 'unconfirmed';

export function judge(owner: Identity, probe: ProcessProbe): Verdict {
  if (!probe.exists(owner.pid)) return 'gone';
  if (owner.boot !== undefined && earlierBoot(owner.boot, probe.boot())) return 'gone';
  if (owner.start === undefined) return 'unconfirmed';
  const now = probe.startTime(owner.pid);
  if (now === undefined) return 'unconfirmed';
  return now === owner.start ? 'confirmed' : 'gone';
}
