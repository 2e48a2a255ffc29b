// Checks made when paths are queued: each must be a readable regular file within the
// workspace's size limit. A folder is expanded to the regular files inside it (recursively,
// skipping hidden entries and symlinks, sorted by path); more than MAX_FOLDER_FILES, or none,
// refuses the folder. The engine checks again when it sends (size and mtime unchanged).

import { constants, type Dirent, type Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { errorMessage } from '../../portable/error-message';
import { formatBytes, formatOverLimit } from '../../portable/format-bytes';
import { MetadataProblem, planStrip } from '../metadata/strip';
import type { StrippedFile } from '../model';
import type { PathDescription, Refusal } from '../views';

export { formatBytes };

export const MAX_FOLDER_FILES = 200;

export interface CheckedFile {
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  /** Sent without its hidden details (withStripPlans). */
  stripped?: StrippedFile;
}

/**
 * Each photo and video with what removing its hidden details takes out and the length then sent
 * (other files as they are). A file whose structure cannot be read is refused, saying so: it is
 * not sent silently as it is, and the person can send it again keeping its details.
 */
async function withStripPlans(checked: CheckedPaths): Promise<CheckedPaths> {
  const files: CheckedFile[] = [];
  const refused = [...checked.refused];
  for (const file of checked.files) {
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(file.path, OPEN_FLAGS);
      const planned = await planOpenFile(handle, file);
      if ('code' in planned) refused.push({ path: file.path, ...planned });
      else files.push(planned);
    } catch (error) {
      refused.push({ path: file.path, ...errnoReason(error) });
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }
  return { files, refused };
}

/** The plan for a file already open: the file with what leaves, or why it is refused. */
async function planOpenFile(
  handle: Awaited<ReturnType<typeof open>>,
  file: CheckedFile,
): Promise<CheckedFile | Refusal> {
  try {
    const plan = await planStrip(handle, file.size, file.name);
    return plan ? { ...file, stripped: { removed: plan.removed, size: plan.size } } : file;
  } catch (error) {
    if (error instanceof MetadataProblem) {
      return {
        code: error.code,
        reason: `${error.message} Send it again keeping its details (it then leaves as it is, location included), or leave it out.`,
      };
    }
    return errnoReason(error);
  }
}

/** How many of the files hold a location (a file that cannot be read counts for none here). */
async function locatedCount(files: readonly CheckedFile[]): Promise<number> {
  const planned = await withStripPlans({ files: [...files], refused: [] });
  return planned.files.filter((f) => f.stripped?.removed.includes('location')).length;
}

export interface CheckedPaths {
  files: CheckedFile[];
  refused: ({ path: string } & Refusal)[];
}

function errnoReason(err: unknown): Refusal {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { code: 'not_found', reason: 'No such file or folder.' };
    case 'EACCES':
    case 'EPERM':
      return {
        code: 'permission_denied',
        reason: 'Trayshare is not allowed to read it (permission denied).',
      };
    case 'ELOOP':
      return { code: 'link_loop', reason: 'It is a link that points to itself.' };
    case 'EISDIR':
      return { code: 'is_folder', reason: 'It is a folder.' };
    default:
      return {
        code: 'unreadable',
        reason: `It cannot be read (${code ?? errorMessage(err)}).`,
      };
  }
}

const NOT_REGULAR: Refusal = {
  code: 'not_regular_file',
  reason: 'Not a regular file (a device, pipe or socket cannot be uploaded).',
};

// Not a regular file is refused from stat alone: opening a FIFO for reading waits for a writer.
// Then the file is opened (non-blocking where the platform has it): access() says yes to root
// and cannot see every refusal a file system makes.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * One path that must be a readable regular file within `maxBytes`; a Refusal says why not.
 * `known`: what a stat of the path just gave (not asked again). `strip`: the file is planned
 * without its hidden details (withStripPlans) through the same open handle, so a queued file
 * is opened once here, not twice (a share of many small files paid an open, a read and a
 * close more per file).
 */
export async function checkFile(
  path: string,
  maxBytes: number,
  opts: { known?: Stats; strip?: boolean } = {},
): Promise<CheckedFile | Refusal> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    if (!(opts.known ?? (await stat(path))).isFile()) return NOT_REGULAR;
    fh = await open(path, OPEN_FLAGS);
    const st = await fh.stat();
    if (!st.isFile()) return NOT_REGULAR;
    if (st.size > maxBytes) {
      const shown = formatOverLimit(st.size, maxBytes);
      return {
        code: 'too_large',
        reason: `Too large: ${shown.size}; this workspace accepts files up to ${shown.limit}.`,
      };
    }
    const file = { path, name: basename(path), size: st.size, mtimeMs: st.mtimeMs };
    return opts.strip ? await planOpenFile(fh, file) : file;
  } catch (err) {
    return errnoReason(err);
  } finally {
    await fh?.close().catch(() => {});
  }
}

const isHidden = (entry: Dirent) => entry.name.startsWith('.');

/** Regular files under `dir`, sorted by path; stops once it has found more than `limit`. */
async function listFolder(
  dir: string,
  limit: number,
): Promise<{ files: string[]; unreadable: ({ path: string } & Refusal)[] }> {
  const files: string[] = [];
  const unreadable: ({ path: string } & Refusal)[] = [];
  const walk = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      unreadable.push({ path: folder, ...errnoReason(err) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length > limit) return;
      if (isHidden(entry) || entry.isSymbolicLink()) continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  await walk(dir);
  // Sorted by the whole path, so "a/b" and "a-b" come out the same way on every platform.
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, unreadable };
}

/**
 * Checks and expands the paths of one share request; repeats are queued once. `strip`: each
 * file is planned without its hidden details as withStripPlans does, while it is open for its
 * check.
 */
export async function checkPaths(
  paths: readonly string[],
  maxBytes: number,
  opts: { strip?: boolean } = {},
): Promise<CheckedPaths> {
  const files: CheckedFile[] = [];
  const refused: ({ path: string } & Refusal)[] = [];
  const seen = new Set<string>();
  const add = async (path: string, shown: string, known?: Stats) => {
    if (seen.has(path)) return;
    seen.add(path);
    const checked = await checkFile(path, maxBytes, {
      ...(known ? { known } : {}),
      ...(opts.strip ? { strip: true } : {}),
    });
    if ('code' in checked) refused.push({ path: shown, ...checked });
    else files.push(checked);
  };

  for (const given of paths) {
    const path = resolve(given);
    let st: Stats;
    try {
      st = await stat(path);
    } catch (err) {
      refused.push({ path: given, ...errnoReason(err) });
      continue;
    }
    if (!st.isDirectory()) {
      await add(path, given, st);
      continue;
    }
    const listing = await listFolder(path, MAX_FOLDER_FILES);
    if (listing.files.length > MAX_FOLDER_FILES) {
      refused.push({
        path: given,
        code: 'folder_too_large',
        reason: `The folder holds more than ${MAX_FOLDER_FILES} files; share a smaller folder or a zip of it.`,
      });
      continue;
    }
    if (listing.files.length === 0) {
      const unreadable = listing.unreadable[0];
      refused.push(
        unreadable
          ? {
              path: given,
              code: unreadable.code,
              reason: `The folder cannot be read: ${unreadable.reason}`,
            }
          : {
              path: given,
              code: 'folder_empty',
              reason: 'The folder holds no files (hidden files and links are not shared).',
            },
      );
      continue;
    }
    refused.push(...listing.unreadable);
    for (const file of listing.files) await add(file, file);
  }
  return { files, refused };
}

/**
 * Describes picked paths the way checkPaths would queue them (same checks, same limits), one
 * entry per given path, so the sheet can show sizes, a folder's file count and refusals before
 * anything is sent. A path given twice is described twice; the queue still sends it once.
 */
export async function describePaths(
  paths: readonly string[],
  maxBytes: number,
): Promise<PathDescription[]> {
  const described: PathDescription[] = [];
  for (const path of paths) {
    let folder = false;
    try {
      folder = (await stat(resolve(path))).isDirectory();
    } catch {
      // checkPaths says why (missing, permission denied…).
    }
    const { files, refused } = await checkPaths([path], maxBytes);
    const kind = folder ? 'folder' : 'file';
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    if (files.length === 0) {
      const first = refused[0];
      described.push({
        path,
        kind,
        files: 0,
        bytes: 0,
        refused: first
          ? folder && first.path !== path
            ? { code: first.code, reason: `Nothing in it can be sent: ${first.reason}` }
            : { code: first.code, reason: first.reason }
          : { code: 'folder_empty', reason: 'The folder holds no files.' },
      });
      continue;
    }
    const located = await locatedCount(files);
    described.push({
      path,
      kind,
      files: files.length,
      bytes,
      ...(refused.length > 0 ? { skipped: refused } : {}),
      ...(located > 0 ? { located } : {}),
    });
  }
  return described;
}
