// Sample photos and videos with every kind of hidden detail the issue names, made in the test
// from tiny generated images and a hand-written video, with ExifTool writing the details (the
// same tool then judges what left). Needs Debian's libimage-exiftool-perl.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

function exiftool(args: string[]): string {
  return execFileSync('exiftool', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Every tag ExifTool reads, as "Group:Name" → value (duplicates: the first). */
export function tagsOf(path: string): Record<string, string> {
  const [tags] = JSON.parse(exiftool(['-j', '-a', '-G1', '-b', '-n', path])) as Record<
    string,
    unknown
  >[];
  return Object.fromEntries(Object.entries(tags ?? {}).map(([k, v]) => [k, String(v)]));
}

/** The names of what a person would call private: location, serials, owners, thumbnails. */
export function privateTags(path: string): string[] {
  return Object.keys(tagsOf(path)).filter((k) =>
    /GPS|Location|SerialNumber|OwnerName|Artist|Author|Thumbnail|PreviewImage|City|Comment|Make|Model/i.test(
      k.split(':')[1] ?? k,
    ),
  );
}

/** RGBA pixels of a w×h gradient. */
function pixels(w: number, h: number): Buffer {
  const data = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      data[i] = (x * 4) & 255;
      data[i + 1] = (y * 5) & 255;
      data[i + 2] = (x * y) & 255;
      data[i + 3] = 255;
    }
  }
  return data;
}

const DETAILS = [
  '-GPSLatitude=48.8584',
  '-GPSLatitudeRef=N',
  '-GPSLongitude=2.2945',
  '-GPSLongitudeRef=E',
  '-SerialNumber=SN-12345',
  '-OwnerName=Ada Lovelace',
  '-Artist=Ada Lovelace',
  '-Make=Acme',
  '-Model=Phone 9',
  '-Orientation#=6',
  '-XMP-exif:GPSLatitude=48.8584',
  '-XMP-exif:GPSLongitude=2.2945',
  '-XMP-aux:SerialNumber=SN-12345',
];

function withDetails(dir: string, path: string, extra: string[] = []): string {
  const thumb = join(dir, 'thumb-source.jpg');
  writeFileSync(thumb, jpeg.encode({ data: pixels(8, 8), width: 8, height: 8 }, 90).data);
  exiftool([
    '-q',
    '-q',
    '-overwrite_original',
    ...DETAILS,
    `-ThumbnailImage<=${thumb}`,
    ...extra,
    path,
  ]);
  return path;
}

export function jpegSample(dir: string, name = 'photo.jpg', w = 64, h = 48): string {
  const path = join(dir, name);
  writeFileSync(path, jpeg.encode({ data: pixels(w, h), width: w, height: h }, 90).data);
  return withDetails(dir, path, ['-IPTC:City=Paris', '-Comment=taken at home']);
}

export function pngSample(dir: string, name = 'picture.png'): string {
  const png = new PNG({ width: 64, height: 48 });
  pixels(64, 48).copy(png.data);
  const path = join(dir, name);
  writeFileSync(path, PNG.sync.write(png));
  return withDetails(dir, path, ['-PNG:Comment=taken at home']);
}

// A 1×1 lossless WebP (the smallest valid one, as widely used in feature tests).
const TINY_WEBP = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';

export function webpSample(dir: string, name = 'picture.webp'): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(TINY_WEBP, 'base64'));
  return withDetails(dir, path);
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

const zeros = (n: number) => Buffer.alloc(n);
const u32 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v, i * 4);
  return b;
};

/**
 * A small MP4 or MOV a reader accepts: ftyp, mdat (`mediaBytes` of random media data), and a
 * moov with one video track whose chunk offset points into mdat. Written box by box (no
 * ffmpeg here), then ExifTool adds the QuickTime location and the other details.
 */
export function videoSample(
  dir: string,
  name = 'clip.mov',
  mediaBytes = 64 * 1024,
  brand: 'qt  ' | 'isom' = 'qt  ',
): string {
  const ftyp = box(
    'ftyp',
    Buffer.from(brand, 'latin1'),
    u32(0),
    Buffer.from(`${brand}isom`, 'latin1'),
  );
  const mdatHead = u32(8 + mediaBytes);
  const mdatData = ftyp.length + 8;
  const matrix = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);
  const mvhd = box(
    'mvhd',
    u32(0, 0, 0, 600, 600, 0x10000),
    Buffer.from([1, 0]),
    zeros(10),
    matrix,
    zeros(24),
    u32(2),
  );
  const tkhd = box(
    'tkhd',
    u32(3, 0, 0, 1, 0, 600),
    zeros(8),
    Buffer.from([0, 0, 0, 0, 1, 0, 0, 0]),
    matrix,
    u32(64 << 16, 48 << 16),
  );
  const mdhd = box('mdhd', u32(0, 0, 0, 600, 600), Buffer.from([0x55, 0xc4, 0, 0]));
  const hdlr = box(
    'hdlr',
    u32(0, 0),
    Buffer.from('vide', 'latin1'),
    zeros(12),
    Buffer.from('Video\0', 'latin1'),
  );
  // One visual sample entry (ISO/IEC 14496-12 12.1.3) whose data reference is this file.
  const sampleEntry = box(
    'avc1',
    zeros(6),
    Buffer.from([0, 1]),
    zeros(16),
    Buffer.from([0, 64, 0, 48]),
    u32(0x480000, 0x480000, 0),
    Buffer.from([0, 1]),
    zeros(32),
    Buffer.from([0, 0x18, 0xff, 0xff]),
  );
  const stbl = box(
    'stbl',
    box('stsd', u32(0, 1), sampleEntry),
    box('stts', u32(0, 1, 1, 600)),
    box('stsc', u32(0, 1, 1, 1, 1)),
    box('stsz', u32(0, mediaBytes, 1)),
    box('stco', u32(0, 1, mdatData)),
  );
  const minf = box(
    'minf',
    box('vmhd', u32(1), zeros(8)),
    box('dinf', box('dref', u32(0, 1), box('url ', u32(1)))),
    stbl,
  );
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
  const path = join(dir, name);
  // The media data are written a piece at a time: a bench's video is hundreds of megabytes.
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, Buffer.concat([ftyp, mdatHead, Buffer.from('mdat', 'latin1')]));
    for (let left = mediaBytes; left > 0; left -= 16 << 20) {
      writeSync(fd, randomBytes(Math.min(left, 16 << 20)));
    }
    writeSync(fd, moov);
  } finally {
    closeSync(fd);
  }
  exiftool([
    '-q',
    '-q',
    '-overwrite_original',
    '-GPSCoordinates=48.8584, 2.2945, 35',
    '-UserData:GPSCoordinates=48.8584, 2.2945, 35',
    '-Keys:GPSCoordinates=48.8584, 2.2945, 35',
    '-Make=Acme',
    '-Model=Phone 9',
    '-UserData:Artist=Ada Lovelace',
    '-XMP-exif:GPSLatitude=48.8584',
    '-XMP-exif:GPSLongitude=2.2945',
    '-XMP-aux:SerialNumber=SN-12345',
    path,
  ]);
  return path;
}

/** The bytes of the first top-level box of this type (its content, header left out). */
export function topLevelBox(file: Buffer, type: string): Buffer | undefined {
  for (let at = 0; at + 8 <= file.length; ) {
    let size = file.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(file.readBigUInt64BE(at + 8));
      header = 16;
    }
    if (size === 0) size = file.length - at;
    if (file.toString('latin1', at + 4, at + 8) === type)
      return file.subarray(at + header, at + size);
    if (size < 8) return undefined;
    at += size;
  }
  return undefined;
}

function fullBox(type: string, version: number, ...parts: Buffer[]): Buffer {
  return box(type, Buffer.from([version, 0, 0, 0]), ...parts);
}

const u16 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 2);
  for (const [i, v] of values.entries()) b.writeUInt16BE(v, i * 2);
  return b;
};

/**
 * A small HEIC (ISO/IEC 23008-12) a reader accepts, written box by box: one 'hvc1' image item
 * (`imageBytes` of stand-in coded data), an Exif item with the JPEG sample's EXIF (location,
 * serial, owner, thumbnail) and an XMP item, their bytes in mdat where iloc says.
 */
export function heicSample(dir: string, name = 'photo.heic', imageBytes = 4096): string {
  const source = jpegSample(dir, `${name}-source.jpg`);
  let tiff = execFileSync('exiftool', ['-b', '-EXIF', source]);
  if (tiff.subarray(0, 6).toString('latin1') === 'Exif\0\0') tiff = tiff.subarray(6);
  const xmp = execFileSync('exiftool', ['-b', '-XMP', source]);
  const exif = Buffer.concat([u32(0), tiff]);
  const image = randomBytes(imageBytes);
  const items = [
    { id: 1, type: 'hvc1', data: image },
    { id: 2, type: 'Exif', data: exif },
    { id: 3, type: 'mime', data: xmp },
  ];
  const ftyp = box(
    'ftyp',
    Buffer.from('heic', 'latin1'),
    u32(0),
    Buffer.from('mif1heic', 'latin1'),
  );
  const meta = (mdatData: number) => {
    let at = mdatData;
    const locations = items.map((item) => {
      const entry = Buffer.concat([u16(item.id, 0, 1), u32(at, item.data.length)]);
      at += item.data.length;
      return entry;
    });
    const infes = items.map((item) =>
      fullBox(
        'infe',
        2,
        u16(item.id, 0),
        Buffer.from(item.type, 'latin1'),
        Buffer.from('\0', 'latin1'),
        item.type === 'mime' ? Buffer.from('application/rdf+xml\0', 'latin1') : Buffer.alloc(0),
      ),
    );
    return fullBox(
      'meta',
      0,
      fullBox(
        'hdlr',
        0,
        u32(0),
        Buffer.from('pict', 'latin1'),
        zeros(12),
        Buffer.from('\0', 'latin1'),
      ),
      fullBox('pitm', 0, u16(1)),
      fullBox('iloc', 0, Buffer.from([0x44, 0x00]), u16(items.length), ...locations),
      fullBox('iinf', 0, u16(items.length), ...infes),
      box('iref', Buffer.from([0, 0, 0, 0]), box('cdsc', u16(2, 1, 1)), box('cdsc', u16(3, 1, 1))),
      box(
        'iprp',
        box('ipco', fullBox('ispe', 0, u32(64, 48))),
        fullBox('ipma', 0, u32(1), u16(1), Buffer.from([1, 0x81])),
      ),
    );
  };
  const metaLength = meta(0).length;
  const mdatData = ftyp.length + metaLength + 8;
  const mdat = box('mdat', ...items.map((i) => i.data));
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([ftyp, meta(mdatData), mdat]));
  return path;
}

/**
 * A JPEG as many phones write it: the picture, then a second, smaller JPEG (a preview) after its
 * end marker, found through an APP2 MPF index (CIPA DC-007: MP entries of 16 bytes, the first
 * image's size, the second's offset from the index's TIFF header).
 */
export function mpfSample(dir: string, name = 'phone.jpg'): string {
  const main = jpeg.encode({ data: pixels(64, 48), width: 64, height: 48 }, 90).data;
  const preview = jpeg.encode({ data: pixels(16, 12), width: 16, height: 12 }, 90).data;
  const ifd = Buffer.concat([
    u16(3),
    u16(0xb000, 7),
    u32(4),
    Buffer.from('0100', 'latin1'),
    u16(0xb001, 4),
    u32(1, 2),
    u16(0xb002, 7),
    u32(32, 8 + 2 + 3 * 12 + 4),
    u32(0),
  ]);
  const tiffHead = Buffer.from('4d4d002a00000008', 'hex');
  const entriesLength = 32;
  const segmentLength = 2 + 4 + tiffHead.length + ifd.length + entriesLength;
  const firstSize = main.length + 2 + segmentLength;
  const tiffStart = 2 + 2 + 2 + 4; // SOI, marker, length, "MPF\0"
  const entries = Buffer.concat([
    u32(0x20030000, firstSize, 0),
    u16(0, 0),
    u32(0x00010001, preview.length, firstSize - tiffStart),
    u16(0, 0),
  ]);
  const segment = Buffer.concat([
    Buffer.from([0xff, 0xe2]),
    u16(segmentLength),
    Buffer.from('MPF\0', 'latin1'),
    tiffHead,
    ifd,
    entries,
  ]);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([main.subarray(0, 2), segment, main.subarray(2), preview]));
  return path;
}
