// JPEG: the segments before the image data (ITU T.81 markers; what each APPn holds per
// https://exiftool.org/TagNames/JPEG.html). Kept: APP0 JFIF, APP2 ICC_PROFILE (the colour
// profile), APP14 Adobe (how the colours are encoded), the tables and frame headers, and
// everything from the start of scan on, copied as it is (never decoded). Dropped: APP1 Exif
// (replaced by an Orientation-only block when the image is turned), APP1 XMP and extended XMP,
// APP0 JFXX (a thumbnail), APP2 MPF (the index of preview images stored after the image, which
// are cut off too), APP13 Photoshop/IPTC, the other APPn (makers' blocks) and COM comments.
import { orientationOnlyTiff, readExif, readXmp } from './exif';
import { type HeaderReader, PlanBuilder, type StripPlan } from './plan';

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;

const startsWith = (data: Uint8Array, text: string) =>
  Buffer.from(data.subarray(0, text.length)).toString('latin1') === text;

export async function planJpeg(r: HeaderReader): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const soi = await r.bytes(0, 2, 'the JPEG start marker');
  if (soi[0] !== 0xff || soi[1] !== 0xd8) throw r.damaged('no JPEG start marker');
  plan.copy(0, 2);
  let pos = 2;
  let orientationWritten = false;
  let firstImageEnd: number | undefined;
  for (;;) {
    const head = await r.bytes(pos, 4, 'a JPEG segment header');
    if (head[0] !== 0xff) throw r.damaged(`no JPEG marker at byte ${pos}`);
    const marker = head[1] ?? 0;
    if (marker === 0xff) {
      // Fill bytes before a marker (T.81 B.1.1.2): skip one.
      pos += 1;
      continue;
    }
    if (marker === EOI || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      throw r.damaged(`the image ends before its data starts (marker ${marker.toString(16)})`);
    }
    const length = head.readUInt16BE(2);
    if (length < 2) throw r.damaged(`a segment at byte ${pos} claims ${length} bytes`);
    const end = pos + 2 + length;
    if (end > r.size) throw r.damaged(`a segment at byte ${pos} runs past the end of the file`);
    if (marker === SOS) {
      // From here on the image data: copied as it is, up to the end of the first image when an
      // MPF index says where the preview images after it start.
      let last = r.size;
      // Cut only where the index is right: the first image must end with its end marker there,
      // or a wrong index would cut the picture itself.
      if (firstImageEnd !== undefined && firstImageEnd > pos + 2 && firstImageEnd < r.size) {
        const end = await r.bytes(firstImageEnd - 2, 2, 'the end of the first image');
        if (end[0] === 0xff && end[1] === EOI) last = firstImageEnd;
      }
      if (last < r.size) plan.remove('thumbnail');
      plan.copy(pos, last - pos);
      return plan.done('JPEG');
    }
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if (!isApp && marker !== COM) {
      plan.copy(pos, end - pos);
      pos = end;
      continue;
    }
    const data = await r.bytes(pos + 4, length - 2, 'a JPEG metadata segment');
    if (marker === 0xe0 && startsWith(data, 'JFIF\0')) plan.copy(pos, end - pos);
    else if (marker === 0xe2 && startsWith(data, 'ICC_PROFILE\0')) plan.copy(pos, end - pos);
    else if (marker === 0xee && startsWith(data, 'Adobe')) plan.copy(pos, end - pos);
    else if (marker === 0xe1 && startsWith(data, 'Exif\0\0')) {
      const facts = readExif(data.subarray(6));
      plan.remove(...(facts?.removed ?? ['camera details']));
      if (facts?.orientation && !orientationWritten) {
        const tiff = orientationOnlyTiff(facts.orientation);
        const segment = Buffer.alloc(4 + 6 + tiff.length);
        segment.writeUInt16BE(0xffe1, 0);
        segment.writeUInt16BE(2 + 6 + tiff.length, 2);
        segment.write('Exif\0\0', 4, 'latin1');
        tiff.copy(segment, 10);
        plan.put(segment);
        orientationWritten = true;
      }
    } else if (marker === 0xe1 && startsWith(data, 'http://ns.adobe.com/')) {
      plan.remove(...readXmp(Buffer.from(data).toString('utf8')));
    } else if (marker === 0xe2 && startsWith(data, 'MPF\0')) {
      firstImageEnd = firstImageSize(data.subarray(4));
      plan.remove('thumbnail');
    } else if (marker === 0xed) plan.remove('IPTC');
    else if (marker === 0xe0 && startsWith(data, 'JFXX\0')) plan.remove('thumbnail');
    else if (marker === COM) plan.remove('comments');
    else plan.remove('camera details');
    pos = end;
  }
}

/**
 * The size of the first image (from its start marker to its end marker) as an MPF index
 * records it (CIPA DC-007: tag 0xb002 MPEntry, 16 bytes per image, the second field its size),
 * or undefined when the index cannot be read.
 */
function firstImageSize(tiff: Uint8Array): number | undefined {
  if (tiff.length < 8) return undefined;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return undefined;
  const count = view.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return undefined;
    if (view.getUint16(at, little) !== 0xb002) continue;
    const entries = view.getUint32(at + 8, little);
    if (entries + 8 > tiff.length) return undefined;
    const size = view.getUint32(entries + 4, little);
    return size > 0 ? size : undefined;
  }
  return undefined;
}
