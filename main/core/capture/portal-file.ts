// The file the screenshot portal names is taken only when it is what a screenshot is: an
// ordinary file (not a symbolic link, a folder, a pipe or a device), the person's own, and a
// PNG by its first bytes. It is opened once, without following a link, and every check and the
// copy use that one open file, so a file swapped at the same path after a check is never read.
// Only a file that passed is removed from the shared temp folder; a refused one is left alone.
import { constants, createWriteStream, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isPng } from '../pasted-images';
import type { CaptureOutcome } from './capture-outcome';

const refused = (path: string, why: string, then: string): CaptureOutcome => ({
  kind: 'failed',
  message: `The screenshot portal's file ${path} ${why}, so Trayshare did not take it. ${then}`,
});

const AGAIN = 'Try the capture again.';
const PORTAL_AT_FAULT =
  "Try again; if it happens again, your desktop's screenshot portal is not saving screenshots as Trayshare expects: update xdg-desktop-portal and its backend.";

/** What a non-regular file is, in words a person knows. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not an ordinary file';
}

const aLink = (path: string) =>
  refused(path, 'is a symbolic link, which Trayshare does not follow', PORTAL_AT_FAULT);

/** Why this file is not one to take, or null when it is (a regular file of the person's). */
function whyNot(path: string, stats: Stats): CaptureOutcome | null {
  if (stats.isSymbolicLink()) return aLink(path);
  if (!stats.isFile()) return refused(path, `is ${kindOf(stats)}, not an image`, PORTAL_AT_FAULT);
  // Windows has no getuid (nor the portal); elsewhere the file must be the person's own.
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    return refused(path, `belongs to another user (uid ${stats.uid})`, PORTAL_AT_FAULT);
  }
  return null;
}

function inside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

/** No follow of a last-component link, and no wait for a writer should it be a pipe after all. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Checks the portal's file and copies it to `scratch` (new, 0600). Removes the portal's file
 * when it sits in the shared temp folder, and only once it passed. Never throws.
 */
export async function takePortalFile(path: string, scratch: string): Promise<CaptureOutcome> {
  let before: Stats;
  try {
    before = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return refused(path, 'does not exist', AGAIN);
    }
    return refused(path, `could not be read (${(error as Error).message})`, AGAIN);
  }
  const early = whyNot(path, before);
  if (early) return early;

  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    // ELOOP: a link was put in its place since the check above.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return aLink(path);
    return refused(path, `could not be opened (${(error as Error).message})`, AGAIN);
  }
  let copied = false;
  try {
    const opened = await handle.stat();
    const late = whyNot(path, opened);
    if (late) return late;
    if (opened.dev !== before.dev || opened.ino !== before.ino) {
      return refused(path, 'changed while Trayshare read it', AGAIN);
    }
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!isPng(head.subarray(0, bytesRead))) {
      return refused(path, 'is not a PNG image', PORTAL_AT_FAULT);
    }
    try {
      await pipeline(
        handle.createReadStream({ start: 0, autoClose: false }),
        createWriteStream(scratch, { flags: 'wx', mode: 0o600 }),
      );
    } catch (error) {
      await rm(scratch, { force: true });
      return refused(path, `could not be copied (${(error as Error).message})`, AGAIN);
    }
    copied = true;
    return { kind: 'file', path: scratch };
  } finally {
    await handle.close();
    if (copied) await removeFromTemp(path, before);
  }
}

/**
 * A portal's file in the shared temp folder must not stay there; one elsewhere was put there
 * by the desktop, which may keep its screenshots among the person's pictures. Removed only
 * while the path still names the file that was copied.
 */
async function removeFromTemp(path: string, taken: Stats): Promise<void> {
  if (!inside(tmpdir(), path)) return;
  try {
    const now = await lstat(path);
    if (now.dev === taken.dev && now.ino === taken.ino) await rm(path, { force: true });
  } catch {
    // Already gone, or no longer ours to remove: the copy is what matters.
  }
}
