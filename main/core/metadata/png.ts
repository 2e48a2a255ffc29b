// PNG: chunks (https://www.w3.org/TR/png-3/#5Chunk-layout; where ExifTool finds metadata:
// https://exiftool.org/TagNames/PNG.html). Dropped: eXIf (EXIF, with the location, names and
// serials) and the text chunks tEXt, zTXt and iTXt, which carry XMP ("XML:com.adobe.xmp"),
// EXIF again as "Raw profile type exif/APP1" and free comments. Kept: every other chunk (the
// header, palette, transparency, the iCCP colour profile, sRGB, gamma, the image data) copied
// as it is; bytes after IEND are not part of the image and are not sent. A PNG has no EXIF
// orientation that viewers honour consistently, so none is kept.
import { inflateSync } from 'node:zlib';
import { readExif, readXmp } from './exif';
import { type HeaderReader, PlanBuilder, type RemovedDetail, type StripPlan } from './plan';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);
// Only text chunks up to this size are looked into to say what they held; larger ones are
// dropped all the same.
const LOOK_INTO_BYTES = 1024 * 1024;

export async function planPng(r: HeaderReader): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const sig = await r.bytes(0, 8, 'the PNG signature');
  if (!sig.equals(SIGNATURE)) throw r.damaged('no PNG signature');
  plan.copy(0, 8);
  let pos = 8;
  for (;;) {
    const head = await r.bytes(pos, 8, 'a PNG chunk header');
    const length = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw r.damaged(`no PNG chunk at byte ${pos}`);
    const end = pos + 12 + length;
    if (end > r.size) throw r.damaged(`the ${type} chunk at byte ${pos} runs past the end`);
    if (DROPPED.has(type)) {
      plan.remove(...(length <= LOOK_INTO_BYTES ? await describe(r, type, pos + 8, length) : []));
      if (length > LOOK_INTO_BYTES) plan.remove('comments');
    } else {
      plan.copy(pos, end - pos);
    }
    pos = end;
    if (type === 'IEND') return plan.done('PNG');
  }
}

async function describe(
  r: HeaderReader,
  type: string,
  at: number,
  length: number,
): Promise<RemovedDetail[]> {
  const data = await r.bytes(at, length, `the ${type} chunk`);
  if (type === 'eXIf') return readExif(data)?.removed ?? ['camera details'];
  const nul = data.indexOf(0);
  if (nul < 0) return ['comments'];
  const keyword = data.toString('latin1', 0, nul);
  let text: Buffer;
  try {
    if (type === 'tEXt') text = data.subarray(nul + 1);
    else if (type === 'zTXt')
      text = inflateSync(data.subarray(nul + 2), { maxOutputLength: 1 << 24 });
    else {
      // iTXt: keyword, compression flag and method, language tag, translated keyword, text.
      const compressed = data[nul + 1] === 1;
      const lang = data.indexOf(0, nul + 3);
      const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
      if (translated < 0) return ['comments'];
      const body = data.subarray(translated + 1);
      text = compressed ? inflateSync(body, { maxOutputLength: 1 << 24 }) : body;
    }
  } catch {
    return ['comments'];
  }
  if (/xmp/i.test(keyword)) return readXmp(text.toString('utf8'));
  if (/^Raw profile type (exif|APP1)$/i.test(keyword)) {
    // ImageMagick's hex form: a blank line, the name, the length, then the bytes in hex.
    const hex = text.toString('latin1').split('\n').slice(3).join('').replace(/\s+/g, '');
    const bytes = Buffer.from(hex, 'hex');
    const tiff = bytes.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? bytes.subarray(6) : bytes;
    return readExif(tiff)?.removed ?? ['camera details'];
  }
  if (/^Raw profile type iptc$/i.test(keyword)) return ['IPTC'];
  return ['comments'];
}
