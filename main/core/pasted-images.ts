// Images pasted from the clipboard (a screenshot) become files so they can be queued like any
// other: a PNG in the state folder, named for when it was pasted. The file lives as long as a
// queue row can still send it: it goes once its upload is delivered or cancelled, or its row is
// cleared; a failed or may-have-been-delivered row keeps it, so Retry still has the image.
// Whatever is left from an earlier run with no queue row is removed at start.
// Screen captures (main/core/capture) live here too, by the same rules, and are also removed
// when the share sheet that showed them is cancelled. The folder is the person's alone (0700,
// files 0600): a screenshot may show anything on the screen.

import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { formatOverLimit } from '../portable/format-bytes';
import { MAX_PASTED_IMAGE_BYTES } from '../portable/pasted-image-limit';
import type { CaptureSource } from './capture/outcome';
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
  /** Removes a capture the queue never took (its share sheet was cancelled). */
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
  at: Date,
  write: (path: string) => Promise<unknown>,
): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // A folder made by an older version kept the default mode.
  if (process.platform !== 'win32') await chmod(dir, 0o700);
  for (let copy = 1; ; copy++) {
    const path = join(dir, pastedImageName(at, copy));
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

export function openPastedImages(dir: string): PastedImages {
  const tracked = new Set<string>();
  // Images the queue has taken: once no row keeps one, it goes. An image saved but not shared
  // yet (the share sheet is open) is not here, so it stays until it is shared or the next start.
  const queued = new Set<string>();
  const captures = new Map<string, { source: CaptureSource; thumbnail?: Uint8Array }>();
  let chain: Promise<void> = Promise.resolve();
  const remove = (path: string) => {
    tracked.delete(path);
    captures.delete(path);
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
      const path = await writeNew(dir, at, (to) => writeFile(to, bytes, PRIVATE_NEW));
      tracked.add(path);
      return path;
    },
    async keep(from, source, { at = new Date(), thumbnail } = {}) {
      const path = await writeNew(dir, at, (to) =>
        pipeline(createReadStream(from), createWriteStream(to, PRIVATE_NEW)),
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
    discard(path) {
      if (captures.has(path) && !queued.has(path)) remove(path);
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
