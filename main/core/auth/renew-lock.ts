// One renewal of a workspace's tokens at a time across processes (the app and any number of CLI
// runs share the keychain): Slack spends a refresh token the moment it answers, so two processes
// renewing with the same one would leave one of them holding a spent token. The lock is a file
// created exclusively (atomic on every local file system) in the user-data folder, which the
// app and the CLI share (their state folders differ). A renewal takes seconds; a lock whose
// holder is gone (a crash) or that is older than any renewal can take is removed.
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultSleep, type Sleep } from '../sleep';

/** Longer than a renewal can take: 15 s to connect plus 30 s of silence, and the keychain. */
const STALE_MS = 90_000;
const POLL_MS = 50;

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function removeIfStale(path: string, now: number): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const [pidText, sinceText] = text.split(' ');
  const pid = Number(pidText);
  const since = Number(sinceText);
  const written = Number.isInteger(pid) && pid > 0 && Number.isFinite(since);
  // A holder creates the file, then writes its pid: a file read in between is empty, and is a
  // live lock. Only its age can tell it from one whose holder died before writing.
  const age = written ? now - since : now - ((await stat(path).catch(() => null))?.mtimeMs ?? now);
  const stale = age > STALE_MS || (written && !alive(pid));
  if (!stale) return;
  // Re-read right before removing, so a lock taken over meanwhile by a third process stays.
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) {
    await unlink(path).catch(() => undefined);
  }
}

/** Runs `work` holding the renewal lock of this workspace, waiting for another holder first. */
export async function withRenewLock<T>(
  dir: string,
  workspaceId: string,
  work: () => Promise<T>,
  sleep: Sleep = defaultSleep,
): Promise<T> {
  const path = join(dir, `renew-${workspaceId.replace(/[^A-Za-z0-9-]/g, '_')}.lock`);
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${process.pid} ${Date.now()}`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await removeIfStale(path, Date.now());
      await sleep(POLL_MS);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
