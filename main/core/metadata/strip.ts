// Which files have hidden details removed on the way out, and the plan that removes them. The
// format is told by the file's first bytes, not its name: a photo renamed .bin is still a
// photo. Other files get no plan and leave as they are.
//
// Why this is written here rather than taken from a library: the npm libraries that touch these
// formats either only read (exifr, exif-reader), or rewrite a whole file held in memory and one
// format each (piexifjs: JPEG only, a string of the whole file; png-chunks-extract/encode: the
// whole PNG as chunks in memory; mp4box.js: parses, writes whole boxes). None gives what an
// upload needs: the exact sent length before the first byte, the pixel and media bytes copied
// from disk untouched, and memory flat whatever the size.
//
// Each format's reader is loaded only when a file's first bytes name that format: most files a
// person sends (logs, archives, documents) are none of them, and a plain `trayshare send`
// then loads, compiles and runs none of the readers' code.
import { type FileHandle, open } from 'node:fs/promises';
import { HeaderReader, ISOBMFF_TOP_LEVEL, type StripPlan } from './plan';

export type { PlanPiece, StripPlan } from './plan';
export { MetadataProblem } from './plan';

/**
 * The plan for an open file of `size` bytes, or undefined when it is not a JPEG, PNG, WebP,
 * HEIC/HEIF, AVIF, MP4 or MOV file. Throws MetadataProblem, naming the file and what is wrong,
 * when its structure cannot be read safely.
 */
export async function planStrip(
  handle: FileHandle,
  size: number,
  name: string,
): Promise<StripPlan | undefined> {
  const r = new HeaderReader(handle, size, name);
  if (size < 12) return undefined;
  const head = await r.bytes(0, 12, 'the first bytes');
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return (await import('./jpeg')).planJpeg(r);
  }
  if (head.toString('latin1', 0, 8) === '\x89PNG\r\n\x1a\n') {
    return (await import('./png')).planPng(r);
  }
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    return (await import('./webp')).planWebp(r);
  }
  if (!ISOBMFF_TOP_LEVEL.has(head.toString('latin1', 4, 8))) return undefined;
  const { isobmffKind, planIsobmff } = await import('./isobmff');
  const kind = await isobmffKind(r, name);
  return kind ? planIsobmff(r, kind) : undefined;
}

/** planStrip for a file not yet open (its size read from the open file). */
export async function planFile(path: string, name: string): Promise<StripPlan | undefined> {
  const handle = await open(path, 'r');
  try {
    return await planStrip(handle, (await handle.stat()).size, name);
  } finally {
    await handle.close();
  }
}
