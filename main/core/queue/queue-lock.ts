// One process at a time works a queue folder: two would both replay the journal and send the
// same items twice. The lock file holds its owner's identity (process-identity.ts: pid, boot,
// and the process's start time where the OS gives it), so a pid reused by an unrelated process
// after a crash or a reboot is not mistaken for a live owner on any OS. An unreadable or empty
// lock file (never written by this version, which links a complete file into place) counts as
// stale. A lock whose owner is gone is taken over, and the takeover is serialised: only the
// process that creates the takeover guard (an exclusive create, atomic on every local file
// system) may replace the stale lock, after checking under the guard that it is still the same
// stale lock. Node has no flock(), and the lock libraries on npm (proper-lockfile and its forks)
// remove a stale lock and re-create it in two steps, so two processes can both "take over" it:
// the race this file exists to close.
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  formatIdentity,
  type Identity,
  judge,
  ownIdentity,
  type ProcessProbe,
  parseIdentity,
  processProbe,
} from './process-identity';

export const LOCK_FILE = 'queue.lock';
const GUARD_SUFFIX = '.takeover';
// The holder touches its lock file this often. Where the OS gives no start time (Windows), a
// lock touched lately is known to be held by a running Trayshare: a program that got the pid
// after a crash does not touch it.
const HEARTBEAT_MS = 10_000;
const FRESH_MS = 3 * HEARTBEAT_MS + 5_000;

/**
 * Whether the lock was touched lately by a holder that touches it. Only this version's lock
 * (`PID START BOOT SINCE`, which carries when it was taken) comes with the heartbeat: an older
 * version's `PID` or `PID START` lock is never touched after it is written, so a recent mtime
 * says nothing about who has that pid now (an unrelated program may).
 */
async function keptFresh(path: string, owner: Identity): Promise<boolean> {
  if (owner.since === undefined) return false;
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < FRESH_MS;
}

export class QueueLockedError extends Error {
  readonly pid: number;
  /** The lock file, for the person to remove when its holder is not Trayshare. */
  readonly lockPath: string;
  /**
   * The holder is known to be the process that took the lock: its start time matches or, where
   * the OS gives none (Windows), it keeps the lock file fresh. False when neither tells (a lock
   * left by a crash, or written by an older version): the pid may belong to another program.
   */
  readonly confirmed: boolean;
  /** When the holder took the lock (epoch ms), if it said. */
  readonly since: number | undefined;
  constructor(dir: string, owner: Identity, confirmed: boolean) {
    super(
      `Another Trayshare process (pid ${owner.pid}) is using the upload queue in ${dir}. Quit it, or let it do the upload.`,
    );
    this.name = 'QueueLockedError';
    this.pid = owner.pid;
    this.lockPath = join(dir, LOCK_FILE);
    this.confirmed = confirmed;
    this.since = owner.since;
  }
}

const defaultProbe = processProbe();

// Lock files this process holds, so a second open in the same process is refused too.
const held = new Set<string>();

/** When the process started (clock ticks since boot), from /proc; undefined elsewhere. */
export function startTimeOf(pid: number): string | undefined {
  return processProbe({ platform: 'linux' }).startTime(pid);
}

async function readOwner(path: string): Promise<{ text: string; owner?: Identity } | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    const owner = parseIdentity(text);
    return owner ? { text, owner } : { text };
  } catch {
    return undefined;
  }
}

/**
 * Creates `path` holding our identity, or returns false when it exists. The identity is written
 * to a private file first and hard-linked into place (link fails atomically when the name
 * exists), so nobody ever reads a lock file that is created but still empty.
 */
async function createExclusive(path: string, identity: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(temp, identity, { mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Removes a file only if it still holds `text` (moved aside first, so the check is atomic). */
async function removeIfStill(path: string, text: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved === text) {
    await unlink(aside).catch(() => {});
    return;
  }
  // Someone else's fresh file: put it back where it was, unless it was replaced meanwhile.
  await rename(aside, path).catch(() => {});
}

export interface QueueLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** How processes are told apart; tests inject one that sees what macOS or Windows see. */
  probe?: ProcessProbe;
}

export async function acquireQueueLock(dir: string, opts: LockOptions = {}): Promise<QueueLock> {
  const probe = opts.probe ?? defaultProbe;
  const path = join(dir, LOCK_FILE);
  const guard = path + GUARD_SUFFIX;
  const mine = formatIdentity(ownIdentity(probe));
  for (let attempt = 0; ; attempt++) {
    if (await createExclusive(path, mine)) break;
    const found = await readOwner(path);
    if (found === undefined) continue; // released meanwhile: try again
    const { owner, text } = found;
    if (owner !== undefined) {
      if (owner.pid === process.pid) {
        if (held.has(path)) throw new QueueLockedError(dir, owner, true);
      } else {
        const verdict = judge(owner, probe);
        if (verdict !== 'gone') {
          const confirmed = verdict === 'confirmed' || (await keptFresh(path, owner));
          throw new QueueLockedError(dir, owner, confirmed);
        }
      }
    }
    if (attempt > 50) throw new QueueLockedError(dir, owner ?? { pid: 0 }, false);
    // Stale. Only the holder of the guard replaces it; the others wait and look again.
    if (!(await createExclusive(guard, mine))) {
      const other = await readOwner(guard);
      if (other?.owner && judge(other.owner, probe) === 'gone') {
        await removeIfStill(guard, other.text);
      }
      await pause(20 + Math.random() * 30);
      continue;
    }
    try {
      const again = await readOwner(path);
      // Still the same stale lock: nobody took it over between our look and the guard.
      if (again?.text === text) await unlink(path).catch(() => {});
    } finally {
      await unlink(guard).catch(() => {});
    }
  }
  held.add(path);
  let released = false;
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(path, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      held.delete(path);
      await unlink(path).catch(() => {});
    },
  };
}
