// One read-change-write of the settings file at a time, across every process that shares it:
// the app and any number of CLI runs write the same config.json. The file is replaced
// atomically, but a process that read it before another one's write, and writes after it,
// would put back what it read: presets another process added disappear, a removed workspace
// comes back, a changed address is undone. So each change reads, changes and writes while
// holding a lock file beside the settings file, config.json.lock.
//
// Why this lock, and not proper-lockfile (the usual npm answer): Node has no flock(), and
// proper-lockfile removes a stale lock and creates its own in two steps, so two processes that
// both find a crashed process's lock can both end up holding it (still open upstream:
// https://github.com/moxystudio/node-proper-lockfile/issues/121). The queue's lock
// (queue/queue-lock.ts) closes that race the same way as here: only the process that creates
// a takeover guard may remove a stale lock, after checking it is still the same one.
//
// The lock is synchronous and held only for the few milliseconds of one read, change and
// write, never across an await, so within a process nothing else can run while it is held;
// update() stays synchronous for its many callers. Waiting is therefore short: another
// process's change, or a few of them. A lock whose holder is gone does not block the others:
// its holder's pid is recorded, and a lock whose process no longer exists on this computer, or
// that is older than any change can take, is taken over at once. A lock that stays held longer
// than WAIT_MS is refused with words, and nothing is changed.
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { SettingsError } from './settings-error';

/** Far longer than one read, change and write takes, even on a slow disk. */
const STALE_MS = 10_000;
/** How long a change waits for another process's before it gives up, changing nothing. */
const LOCK_WAIT_MS = 5_000;
const GUARD_SUFFIX = '.takeover';

const HOST = hostname();

// Lock files this process holds right now (always within one synchronous call), so a read that
// repairs the file inside an update does not wait for its own lock.
const held = new Set<string>();

// A synchronous pause: Atomics.wait blocks this thread without spinning (allowed on Node's main
// thread, unlike a browser's: https://nodejs.org/api/globals.html#atomics).
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

interface Owner {
  pid: number;
  host: string;
  since: number;
}

function identity(): string {
  return JSON.stringify({ pid: process.pid, host: HOST, since: Date.now() });
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Partial<Owner> | null;
    if (
      typeof value?.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.since === 'number'
    ) {
      return { pid: value.pid, host: value.host, since: value.since };
    }
  } catch {
    // Created but not yet written, or not ours: judged by its age.
  }
  return undefined;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** Creates `path` holding our identity; false when it exists (or, on Windows, is being removed). */
function createExclusive(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // Windows refuses to create a name whose file another process is still removing.
    if (process.platform === 'win32' && errorCode(error) === 'EPERM') return false;
    throw new SettingsError(
      'write_failed',
      `Could not save the settings: the lock file ${path} could not be created (${errorCode(error) ?? String(error)}).`,
    );
  }
}

interface Found {
  text: string;
  owner: Owner | undefined;
  /** When it was taken: what it says, else when it was written. */
  at: number;
}

function look(path: string): Found | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const owner = parseOwner(text);
    return { text, owner, at: owner?.since ?? statSync(path).mtimeMs };
  } catch {
    return undefined; // released meanwhile
  }
}

function running(pid: number): boolean {
  try {
    // Signal 0 only asks whether the process exists, on every OS:
    // https://nodejs.org/api/process.html#processkillpid-signal
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === 'EPERM';
  }
}

function stale(path: string, found: Found): boolean {
  if (Date.now() - found.at > STALE_MS) return true;
  const owner = found.owner;
  // A pid means something only on the computer that wrote it (a shared network home folder).
  if (owner === undefined || owner.host !== HOST) return false;
  if (owner.pid === process.pid) return !held.has(path);
  return !running(owner.pid);
}

/** Removes a file only if it still holds `text` (moved aside first, so the check is atomic). */
function removeIfStill(path: string, text: string): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  let moved: string | undefined;
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    moved = undefined;
  }
  if (moved === text) {
    try {
      unlinkSync(aside);
    } catch {
      // Left as a .stale- file; nothing reads it.
    }
    return;
  }
  try {
    renameSync(aside, path); // someone's fresh file: put it back
  } catch {
    // It was replaced meanwhile; the newer one stays.
  }
}

/** Removes the stale lock `text` at `path`, unless another process is doing so right now. */
function takeOver(path: string, text: string): void {
  const guard = path + GUARD_SUFFIX;
  if (!createExclusive(guard, identity())) {
    const other = look(guard);
    // A guard is held for microseconds: one left by a crashed process is removed the same way.
    if (other && stale(guard, other)) removeIfStill(guard, other.text);
    return;
  }
  try {
    // Still the same stale lock: nobody took it over between our look and the guard.
    if (look(path)?.text === text) unlinkSync(path);
  } catch {
    // Gone already: the next attempt creates it.
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // Removed by someone who judged it stale; nothing to undo.
    }
  }
}

function busy(
  path: string,
  settingsPath: string,
  found: Found | undefined,
  left: boolean,
  waitMs: number,
): SettingsError {
  if (left) {
    return new SettingsError(
      'settings_busy',
      `Could not save the settings: the lock file ${path}, left by a Trayshare process that is no longer running, could not be removed, so nothing was changed. Delete it and try again.`,
    );
  }
  const owner = found?.owner;
  const who =
    owner === undefined
      ? 'another Trayshare process'
      : `another Trayshare process (pid ${owner.pid}${owner.host === HOST ? '' : ` on ${owner.host}`})`;
  return new SettingsError(
    'settings_busy',
    `Could not save the settings: ${who} has been changing ${settingsPath} for more than ${waitMs / 1000} seconds, so nothing was changed. Try again; if it keeps happening and no Trayshare app or CLI is running, delete ${path}.`,
  );
}

export interface LockOptions {
  /** How long to wait for another process's change (tests shorten it). */
  waitMs?: number;
}

/**
 * Runs `work` (synchronous: it must not start anything that outlives it) holding the lock of
 * the settings file at `settingsPath`. Throws SettingsError 'settings_busy' when another
 * process holds it for longer than the wait, and 'write_failed' when the lock file cannot be
 * created at all (a read-only folder).
 */
export function withSettingsLock<T>(
  settingsPath: string,
  work: () => T,
  opts: LockOptions = {},
): T {
  const path = `${settingsPath}.lock`;
  if (held.has(path)) return work();
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let mine = identity();
  let quick = 0;
  for (let attempt = 0; !createExclusive(path, mine); attempt++) {
    const found = look(path);
    const left = found !== undefined && stale(path, found);
    if (left) takeOver(path, found.text);
    // Released or taken over: tried again at once, even past the wait (a few times: a stale
    // lock that cannot be removed ends in an error below).
    const again = found === undefined || left;
    if (!(again && ++quick <= 10) && Date.now() >= deadline) {
      throw busy(path, settingsPath, found, left, waitMs);
    }
    // Held: 1, 2, 4, 8 ms, a little apart between processes so they do not retry in step. Short,
    // because a holder keeps it for a few milliseconds and a process changing the settings in
    // a loop leaves only short gaps.
    if (!again) pause(2 ** Math.min(attempt, 3) + Math.random() * 2);
    // When it was taken is what tells a lock that is stale by its age.
    mine = identity();
  }
  held.add(path);
  try {
    return work();
  } finally {
    held.delete(path);
    // Only our own lock: one that outlived STALE_MS may have been taken over since.
    if (look(path)?.text === mine) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  }
}
