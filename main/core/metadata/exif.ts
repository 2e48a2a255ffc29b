// EXIF (a TIFF structure) as JPEG, PNG, WebP and HEIC carry it: what it holds that must not
// leave, and the small block that replaces it. Tag numbers are ExifTool's
// (https://exiftool.org/TagNames/EXIF.html): 0x0112 Orientation, 0x8825 GPSInfo (the location),
// 0x8769 ExifOffset, 0x013b Artist, 0xa430 OwnerName, 0xa431 SerialNumber, 0xa435
// LensSerialNumber, 0x927c MakerNote (the maker's own block, where serial numbers also hide),
// 0x010f Make, 0x0110 Model; a second IFD (IFD1) holds the embedded thumbnail.
import type { RemovedDetail } from './plan';

const ORIENTATION = 0x0112;
const GPS_INFO = 0x8825;
const EXIF_IFD = 0x8769;
const ARTIST = 0x013b;
const OWNER_NAME = 0xa430;
const SERIAL_NUMBER = 0xa431;
const LENS_SERIAL_NUMBER = 0xa435;
const MAKER_NOTE = 0x927c;
const MAKE = 0x010f;
const MODEL = 0x0110;

export interface ExifFacts {
  /** 1-8, when the image says how it is turned (a value of 1 is the default and not kept). */
  orientation?: number;
  removed: RemovedDetail[];
}

/**
 * What a TIFF block (starting at its byte-order mark) holds, or undefined when it is not one
 * that can be read: a block that cannot be read is dropped whole all the same.
 */
export function readExif(tiff: Uint8Array): ExifFacts | undefined {
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (tiff.length < 8) return undefined;
  const order = String.fromCharCode(tiff[0] ?? 0, tiff[1] ?? 0);
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  if (u16(2) !== 42) return undefined;
  const removed = new Set<RemovedDetail>();
  let orientation: number | undefined;
  const entries = (ifd: number): Array<{ tag: number; value: number; type: number }> => {
    if (ifd < 8 || ifd + 2 > tiff.length) return [];
    const count = u16(ifd);
    const out: Array<{ tag: number; value: number; type: number }> = [];
    for (let i = 0; i < count; i++) {
      const at = ifd + 2 + i * 12;
      if (at + 12 > tiff.length) break;
      const type = u16(at + 2);
      // A SHORT value sits in the first two bytes of the value field.
      out.push({ tag: u16(at), type, value: type === 3 ? u16(at + 8) : u32(at + 8) });
    }
    return out;
  };
  const ifd0 = u32(4);
  const first = entries(ifd0);
  for (const { tag, value } of first) {
    if (tag === ORIENTATION && value >= 2 && value <= 8) orientation = value;
    if (tag === GPS_INFO) removed.add('location');
    if (tag === ARTIST) removed.add('owner name');
    if (tag === MAKE || tag === MODEL) removed.add('camera details');
    if (tag === EXIF_IFD) {
      for (const sub of entries(value)) {
        if (sub.tag === OWNER_NAME) removed.add('owner name');
        if (sub.tag === SERIAL_NUMBER || sub.tag === LENS_SERIAL_NUMBER)
          removed.add('serial number');
        if (sub.tag === MAKER_NOTE) removed.add('camera details');
      }
    }
  }
  const nextAt = ifd0 + 2 + first.length * 12;
  if (ifd0 >= 8 && nextAt + 4 <= tiff.length && u32(nextAt) !== 0) removed.add('thumbnail');
  return { ...(orientation ? { orientation } : {}), removed: [...removed] };
}

/**
 * The smallest TIFF block that still turns the image the way it was taken: one IFD with the
 * Orientation tag, and nothing else (no location, no names, no thumbnail IFD). Big-endian, as
 * fixed bytes, so the same orientation always gives the same bytes.
 */
export function orientationOnlyTiff(orientation: number): Buffer {
  const out = Buffer.alloc(26);
  out.write('MM', 0, 'latin1');
  out.writeUInt16BE(42, 2);
  out.writeUInt32BE(8, 4);
  out.writeUInt16BE(1, 8); // one entry
  out.writeUInt16BE(ORIENTATION, 10);
  out.writeUInt16BE(3, 12); // SHORT
  out.writeUInt32BE(1, 14);
  out.writeUInt16BE(orientation, 18);
  out.writeUInt32BE(0, 22); // no next IFD: no thumbnail
  return out;
}

/** What an XMP packet repeats of the details above (it is dropped whole either way). */
export function readXmp(text: string): RemovedDetail[] {
  const removed = new Set<RemovedDetail>(['XMP']);
  if (/GPS(Latitude|Longitude|Coordinates)|LocationShown|LocationCreated/i.test(text)) {
    removed.add('location');
  }
  if (/SerialNumber/i.test(text)) removed.add('serial number');
  if (/OwnerName|dc:creator|photoshop:Author/i.test(text)) removed.add('owner name');
  return [...removed];
}
