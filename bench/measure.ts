// Runs one client command as a child process under /usr/bin/time and reports its wall time
// and peak RSS. /usr/bin/time's %M is the largest resident set of the command and of every
// descendant it waited for, so a shell loop of curls reports the largest single process.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TIME_BIN = '/usr/bin/time';

export interface Command {
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export interface Measured {
  wallMs: number;
  /** Peak resident set, KiB (as /usr/bin/time prints it). */
  peakRssKiB: number;
  /** CPU time, user + system, of the command and its children (ms). */
  cpuMs: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** A run that does not end within this is killed and reported as failed (never a timing). */
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** Kept for diagnosis only; a long stderr is cut from the front. */
const MAX_STDERR = 16 * 1024;

let scratch: string | undefined;

/** Where /usr/bin/time writes its figures: a folder the caller removes (default: a temp one). */
export function useScratchDir(dir: string): void {
  scratch = dir;
}

async function scratchDir(): Promise<string> {
  scratch ??= await mkdtemp(join(tmpdir(), 'trayshare-bench-time-'));
  return scratch;
}

let counter = 0;
const running = new Set<number>();
let stopped = false;

/**
 * Ends every client still running (their process groups) and refuses to start more: used when
 * the bench is interrupted.
 */
export function killRunning(): void {
  stopped = true;
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

/** "%M %U %S": peak RSS in KiB, user and system seconds. */
function parseTimeLine(line: string): { peakRssKiB: number; cpuMs: number } {
  const [rss, user, sys] = line.trim().split(/\s+/).map(Number);
  return {
    peakRssKiB: rss ?? Number.NaN,
    cpuMs: user === undefined || sys === undefined ? Number.NaN : Math.round((user + sys) * 1000),
  };
}

export async function measure(command: Command, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Measured> {
  if (stopped) throw new Error('The bench is stopping.');
  const out = join(await scratchDir(), `time-${process.pid}-${counter++}.txt`);
  const started = process.hrtime.bigint();
  const child = spawn(TIME_BIN, ['-f', '%M %U %S', '-o', out, command.cmd, ...command.args], {
    env: command.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a hung run can be ended together with its children.
    detached: true,
  });
  const pid = child.pid;
  if (pid) running.add(pid);
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR);
  });
  const timer = setTimeout(() => {
    stderr += `\n[bench] killed after ${Math.round(timeoutMs / 1000)} s`;
    if (pid) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  }).finally(() => {
    clearTimeout(timer);
    if (pid) running.delete(pid);
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  let peakRssKiB = Number.NaN;
  let cpuMs = Number.NaN;
  try {
    // With a non-zero exit, time writes "Command exited with non-zero status N" first.
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    ({ peakRssKiB, cpuMs } = parseTimeLine(lines[lines.length - 1] ?? ''));
  } catch {
    // No figure: reported as missing.
  }
  await rm(out, { force: true });
  return {
    wallMs,
    peakRssKiB,
    cpuMs,
    exitCode,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr,
  };
}

export interface MeasuredGroup {
  /** From the first start to the last end. */
  wallMs: number;
  /** The largest peak RSS of any one process. */
  maxPeakRssKiB: number;
  /** The processes' peaks added up: what running them together costs at most. */
  sumPeakRssKiB: number;
  /** CPU time of all of them, user + system (ms). */
  cpuMs: number;
  members: Measured[];
}

/** Starts every command at once and waits for all of them. */
export async function measureTogether(commands: Command[]): Promise<MeasuredGroup> {
  const started = process.hrtime.bigint();
  const members = await Promise.all(commands.map((c) => measure(c)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const peaks = members.map((m) => m.peakRssKiB);
  return {
    wallMs,
    maxPeakRssKiB: Math.max(...peaks),
    sumPeakRssKiB: peaks.reduce((a, b) => a + b, 0),
    cpuMs: members.reduce((a, m) => a + m.cpuMs, 0),
    members,
  };
}
