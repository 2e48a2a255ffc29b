// Images pasted from the clipboard (a screenshot) become files so they can be queued like any
// other: a PNG in the state folder, named for when it was pasted. The file lives as long as a
// queue row can still send it: it goes once its upload is delivered or cancelled, or its row is
// cleared; a failed or may-have-been-delivered row keeps it, so Retry still has the image.
// Whatever is left from an earlier run with no queue row is removed at start.
// Screen captures (main/core/capture) live here too, by the same rules, and are also removed
// when the share sheet that showed them is cancelled. The folder is the person's alone (0700,
// files 0600): a screenshot may show anything on the screen.

import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { formatOverLimit } from '../portable/format-bytes';
import { imageTypeOf, MAX_EDITED_IMAGE_BYTES, type SheetImageType } from '../portable/image-bytes';
import { MAX_PASTED_IMAGE_BYTES } from '../portable/pasted-image-limit';
import type { CaptureSource } from './capture/capture-outcome';
import type { QueueItem } from './model';
import { RefusedError } from './refused-error';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * "Screenshot 2026-11-25 at 14.03.07.png", in local time, as macOS names screenshots: people
 * recognise it, it sorts by time, and it holds no character a file system refuses (no colons).
 */
export function pastedImageName(at: Date, copy = 1): string {
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}.${pad(at.getMinutes())}.${pad(at.getSeconds())}`;
  return `Screenshot ${date} at ${time}${copy > 1 ? ` (${copy})` : ''}.png`;
}

/** Whether the bytes start with the PNG signature (and hold more than it). */
export function isPng(bytes: Uint8Array): boolean {
  return (
    bytes.length > PNG_SIGNATURE.length &&
    PNG_SIGNATURE.equals(Buffer.from(bytes.buffer, bytes.byteOffset, PNG_SIGNATURE.length))
  );
}

/** Holds an upload back: the file may still be sent (or sent again with Retry). */
const KEEPS_FILE = new Set<QueueItem['state']>([
  'queued',
  'waiting',
  'sending',
  'failed',
  'unknown',
]);

interface CaptureExtra {
  at?: Date;
  /** A small PNG of the capture, made by a tool that had its pixels in hand (Windows' overlay). */
  thumbnail?: Uint8Array;
}

export interface PastedImages {
  /** Writes the PNG and returns its path. Refuses what is not a PNG or is too large. */
  save(bytes: Uint8Array, at?: Date): Promise<string>;
  /**
   * Copies a screen capture the OS tool wrote into this folder, private to the person, named
   * like the OS names screenshots; returns its path. The tool's own file is left to the caller.
   */
  keep(from: string, source: CaptureSource, extra?: CaptureExtra): Promise<string>;
  /**
   * A capture of this run still kept: how it was taken and a PNG to show (its thumbnail where the
   * tool made one, else the capture itself); null for any other path.
   */
  readCapture(path: string): Promise<{ source: CaptureSource; png: Uint8Array } | null>;
  /**
   * Paths the person handed the app (dropped, picked, right-clicked, sent by the tray): only
   * these, and the images kept here, can be read back as pictures by the page (readImage).
   */
  offer(paths: readonly string[]): void;
  /**
   * The bytes of a PNG, JPEG or WebP image that is in the share sheet (offered, or kept here),
   * up to MAX_EDITED_IMAGE_BYTES; null for any other path, a larger file or another format.
   */
  readImage(path: string): Promise<{ type: SheetImageType; bytes: Uint8Array } | null>;
  /**
   * Writes an image edited in the share sheet as a new private file named after the original
   * ("photo (edited).jpg"), which goes like a capture: once its share ends, or with discard.
   * The original is never touched. Refuses what is not a PNG or JPEG, or is too large.
   */
  saveEdited(bytes: Uint8Array, original: string): Promise<string>;
  /** Removes a capture or edited image the queue never took (its share sheet was cancelled). */
  discard(path: string): void;
  /**
   * The images of this run that may still be in a queue row: saved now, or kept at start. While
   * it is empty (nobody pasted) a queue change has nothing here to look at.
   */
  readonly tracked: ReadonlySet<string>;
  /** Removes the images no queue row can send any more (call on a queue change while tracked). */
  update(items: readonly QueueItem[]): void;
  /** Removes every image no queue row refers to (at start: leftovers of an earlier run). */
  sweep(items: readonly QueueItem[]): Promise<void>;
  /** Resolves when removals under way are done. */
  idle(): Promise<void>;
}

// 'wx': two images in the same second get "(2)", never overwrite each other.
const PRIVATE_NEW = { flags: 'wx', flag: 'wx', mode: 0o600 } as const;

/** Writes a new file named for `at` in `dir` (made private first); returns its path. */
async function writeNew(
  dir: string,
  named: (copy: number) => string,
  write: (path: string) => Promise<unknown>,
): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // A folder made by an older version kept the default mode.
  if (process.platform !== 'win32') await chmod(dir, 0o700);
  for (let copy = 1; ; copy++) {
    const path = join(dir, named(copy));
    try {
      await write(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      // Ours, half written (the tool's file vanished, the disk filled): nothing half is kept.
      await rm(path, { force: true });
      throw error;
    }
  }
}

/** How many handed-over paths are remembered (a drop of a folder's worth of photos, and more). */
const MAX_OFFERED = 10_000;

/** "photo.jpg" edited: "photo (edited).jpg"; a second edit of it, "photo (edited 2).jpg". */
function editedName(original: string, type: 'image/png' | 'image/jpeg', copy: number): string {
  const name = basename(original);
  const stem = name.slice(0, name.length - extname(name).length).replace(/ \(edited( \d+)?\)$/, '');
  const ext = type === 'image/png' ? '.png' : '.jpg';
  return `${stem} (edited${copy > 1 ? ` ${copy}` : ''})${ext}`;
}

/**
 * The file's bytes when it is a PNG, JPEG or WebP no larger than the bound. Read through one
 * handle, so the size checked is the size read even if the file is replaced meanwhile.
 */
async function readBoundedImage(
  path: string,
): Promise<{ type: SheetImageType; bytes: Uint8Array } | null> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const { size, isFile } = await handle
      .stat()
      .then((s) => ({ size: s.size, isFile: s.isFile() }));
    if (!isFile || size === 0 || size > MAX_EDITED_IMAGE_BYTES) return null;
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    const read = bytes.subarray(0, at);
    const type = imageTypeOf(read);
    return type ? { type, bytes: read } : null;
  } catch {
    // Gone, unreadable or a folder: the row shows the name alone.
    return null;
  } finally {
    await handle?.close();
  }
}

export function openPastedImages(dir: string): PastedImages {
  const tracked = new Set<string>();
  // Images the queue has taken: once no row keeps one, it goes. An image saved but not shared
  // yet (the share sheet is open) is not here, so it stays until it is shared or the next start.
  const queued = new Set<string>();
  const captures = new Map<string, { source: CaptureSource; thumbnail?: Uint8Array }>();
  // Edited images not yet in the queue: a cancelled sheet discards them, as it does captures.
  const edited = new Set<string>();
  // Handed over by the person this run. Bounded: the oldest go first (their thumbnails with them).
  const offered = new Set<string>();
  let chain: Promise<void> = Promise.resolve();
  const remove = (path: string) => {
    tracked.delete(path);
    captures.delete(path);
    edited.delete(path);
    chain = chain.then(() => rm(path, { force: true }).catch(() => undefined));
  };

  return {
    tracked,
    async save(bytes, at = new Date()) {
      if (bytes.length > MAX_PASTED_IMAGE_BYTES) {
        const over = formatOverLimit(bytes.length, MAX_PASTED_IMAGE_BYTES);
        throw new RefusedError(
          `The pasted image is ${over.size}; Trayshare takes images up to ${over.limit} from the clipboard. Save it to a file and share the file.`,
        );
      }
      if (!isPng(bytes)) {
        throw new RefusedError('The pasted data is not a PNG image, so it was not shared.');
      }
      const path = await writeNew(
        dir,
        (copy) => pastedImageName(at, copy),
        (to) => writeFile(to, bytes, PRIVATE_NEW),
      );
      tracked.add(path);
      return path;
    },
    async keep(from, source, { at = new Date(), thumbnail } = {}) {
      const path = await writeNew(
        dir,
        (copy) => pastedImageName(at, copy),
        (to) => pipeline(createReadStream(from), createWriteStream(to, PRIVATE_NEW)),
      );
      tracked.add(path);
      captures.set(path, thumbnail ? { source, thumbnail } : { source });
      return path;
    },
    async readCapture(path) {
      const capture = captures.get(path);
      if (!capture) return null;
      return { source: capture.source, png: capture.thumbnail ?? (await readFile(path)) };
    },
    offer(paths) {
      for (const path of paths) {
        offered.delete(path);
        offered.add(path);
      }
      for (const path of offered) {
        if (offered.size <= MAX_OFFERED) break;
        offered.delete(path);
      }
    },
    async readImage(path) {
      if (!offered.has(path) && !tracked.has(path)) return null;
      return readBoundedImage(path);
    },
    async saveEdited(bytes, original) {
      const type = imageTypeOf(bytes);
      if (type !== 'image/png' && type !== 'image/jpeg') {
        throw new RefusedError('The edited image is not a PNG or JPEG, so it was not kept.');
      }
      if (bytes.length > MAX_EDITED_IMAGE_BYTES) {
        const over = formatOverLimit(bytes.length, MAX_EDITED_IMAGE_BYTES);
        throw new RefusedError(
          `The edited image is ${over.size}; Trayshare keeps edited images up to ${over.limit}. Crop it or send it smaller.`,
        );
      }
      const path = await writeNew(
        dir,
        (copy) => editedName(original, type, copy),
        (to) => writeFile(to, bytes, PRIVATE_NEW),
      );
      tracked.add(path);
      edited.add(path);
      return path;
    },
    discard(path) {
      if ((captures.has(path) || edited.has(path)) && !queued.has(path)) remove(path);
    },
    update(items) {
      const kept = new Set<string>();
      for (const item of items) {
        if (!tracked.has(item.path)) continue;
        queued.add(item.path);
        if (KEEPS_FILE.has(item.state)) kept.add(item.path);
      }
      for (const path of queued) {
        if (kept.has(path)) continue;
        queued.delete(path);
        remove(path);
      }
    },
    async sweep(items) {
      const kept = new Set(items.filter((i) => KEEPS_FILE.has(i.state)).map((i) => i.path));
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return;
      }
      for (const name of names) {
        const path = join(dir, name);
        if (kept.has(path)) {
          tracked.add(path);
          queued.add(path);
        } else remove(path);
      }
      await chain;
    },
    idle: () => chain,
  };
}
