// One process at a time works a queue folder: two would both replay the journal and send the
// same items twice. The lock file holds its owner's identity: the pid and, where the OS tells
// it (Linux /proc), the process's start time, so a pid reused by an unrelated process after a
// crash is not mistaken for a live owner. An unreadable or empty lock file (never written by
// this version, which links a complete file into place) counts as stale. A lock whose owner is gone is taken over, and the
// takeover is serialised: only the process that creates the takeover guard (an exclusive
// create, atomic on every local file system) may replace the stale lock, after checking under
// the guard that it is still the same stale lock. Node has no flock(), and the lock libraries
// on npm (proper-lockfile and its forks) remove a stale lock and re-create it in two steps, so
// two processes can both "take over" it: the race this file exists to close.
import { readFileSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'queue.lock';
const GUARD_SUFFIX = '.takeover';

export class QueueLockedError extends Error {
  readonly pid: number;
  constructor(dir: string, pid: number) {
    super(
      `Another Trayshare process (pid ${pid}) is using the upload queue in ${dir}. Quit it, or let it do the upload.`,
    );
    this.name = 'QueueLockedError';
    this.pid = pid;
  }
}

// Lock files this process holds, so a second open in the same process is refused too.
const held = new Set<string>();

/** When the process started (clock ticks since boot), from /proc; undefined elsewhere. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

interface Owner {
  pid: number;
  start?: string;
}

function identity(): string {
  const start = startTimeOf(process.pid);
  return start ? `${process.pid} ${start}` : String(process.pid);
}

function parseOwner(text: string): Owner | undefined {
  const [pidText, start] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return start ? { pid, start } : { pid };
}

function alive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid is in use: by the owner only if it started when the owner did.
  if (owner.start === undefined) return true;
  const now = startTimeOf(owner.pid);
  return now === undefined || now === owner.start;
}

async function readOwner(path: string): Promise<{ text: string; owner?: Owner } | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    return { text, owner: parseOwner(text) };
  } catch {
    return undefined;
  }
}

/**
 * Creates `path` holding our identity, or returns false when it exists. The identity is written
 * to a private file first and hard-linked into place (link fails atomically when the name
 * exists), so nobody ever reads a lock file that is created but still empty.
 */
async function createExclusive(path: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(temp, identity(), { mode: 0o600 });
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

export async function acquireQueueLock(dir: string): Promise<QueueLock> {
  const path = join(dir, LOCK_FILE);
  const guard = path + GUARD_SUFFIX;
  for (let attempt = 0; ; attempt++) {
    if (await createExclusive(path)) break;
    const found = await readOwner(path);
    if (found === undefined) continue; // released meanwhile: try again
    const { owner, text } = found;
    const ours = owner?.pid === process.pid;
    if (owner !== undefined && ((ours && held.has(path)) || (!ours && alive(owner)))) {
      throw new QueueLockedError(dir, owner.pid);
    }
    if (attempt > 50) throw new QueueLockedError(dir, owner?.pid ?? 0);
    // Stale. Only the holder of the guard replaces it; the others wait and look again.
    if (!(await createExclusive(guard))) {
      const other = await readOwner(guard);
      if (other?.owner && !alive(other.owner)) await removeIfStill(guard, other.text);
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
  return {
    async release() {
      if (released) return;
      released = true;
      held.delete(path);
      await unlink(path).catch(() => {});
    },
  };
}
