// WebP: a RIFF file of chunks (https://developers.google.com/speed/webp/docs/riff_container;
// ExifTool: https://exiftool.org/TagNames/RIFF.html). Dropped: the EXIF chunk (replaced by an
// Orientation-only one when the image is turned) and the "XMP " chunk; the VP8X header's EXIF
// and XMP flags then say what is left. Kept as they are: VP8X, ICCP (the colour profile),
// ANIM/ANMF, ALPH and the image data. The RIFF size is rewritten to the new length.
import { orientationOnlyTiff, readExif, readXmp } from './exif';
import { type HeaderReader, PlanBuilder, type StripPlan } from './plan';

const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;

export async function planWebp(r: HeaderReader): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const head = await r.bytes(0, 12, 'the RIFF header');
  if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WEBP') {
    throw r.damaged('no WebP header');
  }
  const riffEnd = 8 + head.readUInt32LE(4);
  if (riffEnd > r.size) throw r.damaged('the RIFF size is larger than the file');
  // Found first, written second: what the header's flags say depends on what is kept.
  type Chunk = { at: number; type: string; size: number; end: number };
  const chunks: Chunk[] = [];
  for (let pos = 12; pos < riffEnd; ) {
    const h = await r.bytes(pos, 8, 'a WebP chunk header');
    const type = h.toString('latin1', 0, 4);
    const size = h.readUInt32LE(4);
    const end = pos + 8 + size + (size % 2);
    if (end > riffEnd) throw r.damaged(`the ${type.trim()} chunk at byte ${pos} runs past the end`);
    chunks.push({ at: pos, type, size, end });
    pos = end;
  }
  let orientation: number | undefined;
  for (const c of chunks) {
    if (c.type === 'EXIF') {
      const data = await r.bytes(c.at + 8, c.size, 'the EXIF chunk');
      const tiff = data.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? data.subarray(6) : data;
      const facts = readExif(tiff);
      plan.remove(...(facts?.removed ?? ['camera details']));
      orientation ??= facts?.orientation;
    } else if (c.type === 'XMP ') {
      plan.remove(...readXmp((await r.bytes(c.at + 8, c.size, 'the XMP chunk')).toString('utf8')));
    }
  }
  // EXIF is allowed only in the extended format, which a VP8X header announces.
  const extended = chunks.some((c) => c.type === 'VP8X');
  const exifChunk = orientation && extended ? orientationChunk(orientation) : undefined;
  let length = 4;
  for (const c of chunks) {
    if (c.type === 'EXIF' || c.type === 'XMP ') continue;
    length += c.end - c.at;
  }
  if (exifChunk) length += exifChunk.length;
  const riff = Buffer.from(head);
  riff.writeUInt32LE(length, 4);
  plan.put(riff);
  for (const c of chunks) {
    if (c.type === 'EXIF' || c.type === 'XMP ') continue;
    if (c.type === 'VP8X' && c.size >= 1) {
      const vp8x = Buffer.from(await r.bytes(c.at, 9, 'the VP8X chunk'));
      const flags = (vp8x[8] ?? 0) & ~(EXIF_FLAG | XMP_FLAG);
      vp8x[8] = exifChunk ? flags | EXIF_FLAG : flags;
      plan.put(vp8x);
      plan.copy(c.at + 9, c.end - c.at - 9);
    } else {
      plan.copy(c.at, c.end - c.at);
    }
  }
  // The spec puts EXIF after the image data: it goes last.
  if (exifChunk) plan.put(exifChunk);
  return plan.done('WebP');
}

function orientationChunk(orientation: number): Buffer {
  const tiff = orientationOnlyTiff(orientation);
  const chunk = Buffer.alloc(8 + tiff.length + (tiff.length % 2));
  chunk.write('EXIF', 0, 'latin1');
  chunk.writeUInt32LE(tiff.length, 4);
  tiff.copy(chunk, 8);
  return chunk;
}
