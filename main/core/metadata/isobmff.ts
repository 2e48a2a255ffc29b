// MP4, MOV, HEIC/HEIF and AVIF: ISO base media files (ISO/IEC 14496-12), a tree of boxes.
// Media data are found through absolute offsets (a video's stco/co64, an image's iloc), so
// nothing may move: each box or item that holds hidden details is turned, in place and at the
// same length, into something readers skip. Where ExifTool finds them
// (https://exiftool.org/TagNames/QuickTime.html):
// - videos: UserData (moov/udta, trak/udta: the ©xyz location, make, model, serial numbers,
//   XMP in 'XMP_'), ItemList and Keys (moov/meta, trak/meta: Apple's
//   com.apple.quicktime.location.ISO6709 and the like), and XMP in a top-level 'uuid' box.
//   Each becomes a 'free' box (a box every reader skips) of the same size, its bytes zeroed.
// - HEIC/AVIF images: the file-level 'meta' box lists items (iinf) and where their bytes are
//   (iloc). An 'Exif' item is overwritten with an empty EXIF block and an XMP item
//   ('mime', application/rdf+xml) with an empty XMP packet, both padded to the same length; the
//   image items, their rotation (irot) and colour profile (colr) are untouched.
import { readExif, readXmp } from './exif';
import {
  type HeaderReader,
  ISOBMFF_TOP_LEVEL,
  PlanBuilder,
  type RemovedDetail,
  type StripPlan,
} from './plan';

const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';
// Boxes read whole to be rewritten or described; larger ones are refused as unusual.
const MAX_META_BYTES = 16 * 1024 * 1024;
const HEIF_BRANDS = new Set([
  'mif1',
  'msf1',
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'avif',
  'avis',
]);

interface Box {
  at: number;
  type: string;
  headerBytes: number;
  end: number;
}

interface Patch {
  at: number;
  data: Uint8Array;
}

/** 'HEIC/AVIF', 'MP4/MOV', or undefined for any other file (sent as it is). */
export async function isobmffKind(
  r: HeaderReader,
  name: string,
): Promise<'HEIC/AVIF' | 'MP4/MOV' | undefined> {
  if (r.size < 8) return undefined;
  const head = await r.bytes(0, Math.min(r.size, 64), 'the first box');
  const type = head.toString('latin1', 4, 8);
  if (!ISOBMFF_TOP_LEVEL.has(type)) return undefined;
  if (type === 'ftyp') {
    const size = head.readUInt32BE(0);
    const brands: string[] = [];
    for (let at = 8; at + 4 <= Math.min(size, head.length); at += 4) {
      if (at !== 12) brands.push(head.toString('latin1', at, at + 4));
    }
    if (brands.some((b) => HEIF_BRANDS.has(b))) return 'HEIC/AVIF';
    const major = brands[0] ?? '';
    if (/^(qt {2}|iso\d|isom|mp4\d|avc1|M4V |mmp4)$/.test(major)) return 'MP4/MOV';
  }
  return /\.(mp4|m4v|mov|qt)$/i.test(name) ? 'MP4/MOV' : undefined;
}

async function boxAt(r: HeaderReader, at: number, parentEnd: number): Promise<Box> {
  const h = await r.bytes(at, 8, 'a box header');
  const type = h.toString('latin1', 4, 8);
  let size = h.readUInt32BE(0);
  let headerBytes = 8;
  if (size === 1) {
    const large = (await r.bytes(at + 8, 8, `the ${type} box's size`)).readBigUInt64BE(0);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw r.damaged(`the ${type} box is too large`);
    size = Number(large);
    headerBytes = 16;
  } else if (size === 0) {
    size = parentEnd - at;
  }
  if (size < headerBytes || at + size > parentEnd) {
    throw r.damaged(`the '${type}' box at byte ${at} runs past its container`);
  }
  return { at, type, headerBytes, end: at + size };
}

async function children(r: HeaderReader, from: number, end: number): Promise<Box[]> {
  const out: Box[] = [];
  for (let at = from; at < end; ) {
    if (end - at < 8) throw r.damaged(`${end - at} stray bytes at byte ${at}`);
    const box = await boxAt(r, at, end);
    out.push(box);
    at = box.end;
  }
  return out;
}

/** The box as a 'free' box of the same size, its content zeroed. */
async function freed(r: HeaderReader, box: Box): Promise<Patch> {
  const length = box.end - box.at;
  if (length > MAX_META_BYTES) throw r.damaged(`an unusually large '${box.type}' box`);
  const data = Buffer.alloc(length);
  (await r.bytes(box.at, box.headerBytes, 'a box header')).copy(data, 0);
  data.write('free', 4, 'latin1');
  return { at: box.at, data };
}

function describeText(bytes: Buffer): RemovedDetail[] {
  const text = bytes.toString('latin1');
  const removed = new Set<RemovedDetail>(['camera details']);
  if (/\u00a9xyz|location/i.test(text)) removed.add('location');
  if (/serial/i.test(text)) removed.add('serial number');
  if (/\u00a9aut|owner|artist/i.test(text)) removed.add('owner name');
  if (/XMP_|xmpmeta/.test(text)) for (const d of readXmp(text)) removed.add(d);
  return [...removed];
}

export async function planIsobmff(
  r: HeaderReader,
  format: 'HEIC/AVIF' | 'MP4/MOV',
): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const patches: Patch[] = [];
  const neutralise = async (box: Box) => {
    patches.push(await freed(r, box));
    const length = box.end - box.at;
    plan.remove(...describeText(await r.bytes(box.at, length, `the ${box.type} box`)));
  };
  for (const top of await children(r, 0, r.size)) {
    if (top.type === 'moov') {
      for (const child of await children(r, top.at + top.headerBytes, top.end)) {
        if (child.type === 'udta' || child.type === 'meta') await neutralise(child);
        if (child.type !== 'trak') continue;
        for (const t of await children(r, child.at + child.headerBytes, child.end)) {
          if (t.type === 'udta' || t.type === 'meta') await neutralise(t);
        }
      }
    } else if (top.type === 'uuid' && top.end - top.at >= 24) {
      const id = (await r.bytes(top.at + 8, 16, 'a uuid box')).toString('hex');
      if (id === XMP_UUID) await neutralise(top);
    } else if (top.type === 'meta' && format === 'HEIC/AVIF') {
      await planItems(r, top, patches, plan);
    }
  }
  patches.sort((a, b) => a.at - b.at);
  let pos = 0;
  for (const p of patches) {
    if (p.at < pos) throw r.damaged('two metadata items share the same bytes');
    plan.copy(pos, p.at - pos);
    plan.put(p.data);
    pos = p.at + p.data.length;
  }
  plan.copy(pos, r.size - pos);
  return plan.done(format);
}

/** The Exif and XMP items of an image file's 'meta' box, overwritten in place. */
async function planItems(r: HeaderReader, meta: Box, patches: Patch[], plan: PlanBuilder) {
  if (meta.end - meta.at > MAX_META_BYTES) throw r.damaged('an unusually large meta box');
  // A full box: version and flags come before its children.
  const boxes = await children(r, meta.at + meta.headerBytes + 4, meta.end);
  const kinds = new Map<number, 'exif' | 'xmp'>();
  const iinf = boxes.find((b) => b.type === 'iinf');
  if (iinf) {
    const data = await r.bytes(iinf.at, iinf.end - iinf.at, 'the item list');
    const version = data[iinf.headerBytes] ?? 0;
    const first = iinf.headerBytes + 4 + (version === 0 ? 2 : 4);
    for (const infe of await children(r, iinf.at + first, iinf.end)) {
      if (infe.type !== 'infe') continue;
      const b = data.subarray(infe.at - iinf.at, infe.end - iinf.at);
      const v = b[infe.headerBytes] ?? 0;
      if (v < 2) continue;
      let at = infe.headerBytes + 4;
      const id = v === 2 ? b.readUInt16BE(at) : b.readUInt32BE(at);
      at += (v === 2 ? 2 : 4) + 2;
      const itemType = b.toString('latin1', at, at + 4);
      at += 4;
      const nameEnd = b.indexOf(0, at);
      if (itemType === 'Exif') kinds.set(id, 'exif');
      if (itemType === 'mime' && nameEnd >= 0) {
        const typeEnd = b.indexOf(0, nameEnd + 1);
        const contentType = b.toString('latin1', nameEnd + 1, typeEnd < 0 ? b.length : typeEnd);
        if (contentType === 'application/rdf+xml') kinds.set(id, 'xmp');
      }
    }
  }
  if (kinds.size === 0) return;
  const iloc = boxes.find((b) => b.type === 'iloc');
  if (!iloc) throw r.damaged('metadata items without an item location box');
  const idat = boxes.find((b) => b.type === 'idat');
  const d = await r.bytes(iloc.at, iloc.end - iloc.at, 'the item location box');
  let at = iloc.headerBytes;
  const need = (n: number) => {
    if (at + n > d.length) throw r.damaged('the item location box is cut short');
  };
  const uint = (bytes: number): number => {
    need(bytes);
    let v = 0;
    for (let i = 0; i < bytes; i++) v = v * 256 + (d[at + i] ?? 0);
    at += bytes;
    return v;
  };
  const version = uint(1);
  at += 3;
  const sizes = uint(1);
  const more = uint(1);
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 15;
  const baseSize = more >> 4;
  const indexSize = version === 1 || version === 2 ? more & 15 : 0;
  const count = uint(version < 2 ? 2 : 4);
  for (let i = 0; i < count; i++) {
    const id = uint(version < 2 ? 2 : 4);
    const method = version === 1 || version === 2 ? uint(2) & 15 : 0;
    uint(2); // data reference index: 0, this file
    const base = uint(baseSize);
    const extents = uint(2);
    const spans: Array<{ at: number; length: number }> = [];
    for (let e = 0; e < extents; e++) {
      uint(indexSize);
      const offset = uint(offsetSize);
      const length = uint(lengthSize);
      spans.push({ at: base + offset, length });
    }
    const kind = kinds.get(id);
    if (!kind) continue;
    let origin = 0;
    if (method === 1) {
      if (!idat) throw r.damaged('an item stored in a missing idat box');
      origin = idat.at + idat.headerBytes;
    } else if (method !== 0) {
      throw r.damaged(`an item stored in an unknown way (${method})`);
    }
    const total = spans.reduce((s, x) => s + x.length, 0);
    if (total > MAX_META_BYTES) throw r.damaged('an unusually large metadata item');
    const original = Buffer.concat(
      await Promise.all(spans.map((s) => r.bytes(origin + s.at, s.length, `item ${id}`))),
    );
    if (kind === 'exif') {
      // The item starts with the offset of the TIFF header (ISO/IEC 23008-12 A.2.1).
      const skip = original.length >= 4 ? original.readUInt32BE(0) + 4 : 0;
      plan.remove(...(readExif(original.subarray(skip))?.removed ?? ['camera details']));
    } else {
      plan.remove(...readXmp(original.toString('utf8')));
    }
    const neutral = kind === 'exif' ? emptyExifItem(total) : emptyXmp(total);
    let from = 0;
    for (const s of spans) {
      patches.push({ at: origin + s.at, data: neutral.subarray(from, from + s.length) });
      from += s.length;
    }
  }
}

/** An Exif item with no tags: the TIFF header offset (0), a header and an empty IFD, then zeros. */
function emptyExifItem(length: number): Buffer {
  const out = Buffer.alloc(length);
  const tiff = Buffer.from('00000000' + '4d4d002a00000008' + '0000' + '00000000', 'hex');
  if (length >= tiff.length) tiff.copy(out, 0);
  return out;
}

/** An XMP packet that says nothing, padded with spaces (XMP allows padding) to the length. */
function emptyXmp(length: number): Buffer {
  const head =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
  const tail = '<?xpacket end="w"?>';
  const out = Buffer.alloc(length, 0x20);
  if (length >= head.length + tail.length) {
    out.write(head, 0, 'latin1');
    out.write(tail, length - tail.length, 'latin1');
  }
  return out;
}
