// Writes RGBA pixels as a PNG file, streaming: the image editor hands main the flattened pixels
// of an edited screenshot, and main compresses them here, because Chromium's canvas PNG encoder
// took about 1.2 s for a 4K screenshot where zlib at its fastest level takes a few tens of
// milliseconds, off the main thread (Node runs a zlib stream on its thread pool), and for this
// kind of image gives a smaller file (docs/benchmarks.md has the figures).
//
// The format is small enough to write by hand (PNG specification, third edition:
// https://www.w3.org/TR/png-3/): the signature, an IHDR chunk (section 11.2.1: width, height,
// bit depth 8, colour type 6 for RGBA, compression 0, filter method 0, no interlace), the
// image as zlib data split over IDAT chunks (section 11.2.3), and IEND. Each chunk is its length,
// its type, its data and a CRC-32 of type and data (section 5.3), which zlib.crc32 computes
// (Node 20.15 and 22.2 on: https://nodejs.org/api/zlib.html#zlibcrc32data-value). Every row
// starts with its filter type (section 7.3); type 0, None, is used: measured on the bench's 4K
// screenshot, Sub and Up made the file larger at the same zlib level (flat colour compresses
// best as it is) and cost a pass over every byte in JavaScript. pngjs (a devDependency the tests
// decode with) would also do, but filters the whole image in memory before compressing, and
// would have to ship with the app; the chunks here are a few lines.
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, crc32, createDeflate } from 'node:zlib';

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height pixels, row by row, 4 bytes each (red, green, blue, alpha, not premultiplied). */
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** About a megabyte of rows goes to zlib at a time, so memory stays flat whatever the size. */
const BATCH_BYTES = 1024 * 1024;

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function header(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr)]);
}

/** The rows, each after its filter-type byte (0, None), a batch of rows at a time. */
function* scanlines({ width, height, pixels }: RgbaImage): Generator<Buffer> {
  const stride = width * 4;
  const rows = Math.max(1, Math.floor(BATCH_BYTES / (stride + 1)));
  for (let y = 0; y < height; y += rows) {
    const count = Math.min(rows, height - y);
    const batch = Buffer.alloc(count * (stride + 1));
    for (let r = 0; r < count; r++) {
      const from = (y + r) * stride;
      batch.set(pixels.subarray(from, from + stride), r * (stride + 1) + 1);
    }
    yield batch;
  }
}

/**
 * Writes `image` as a PNG at `path`, opened with `flags` and `mode` (so a caller can make it
 * private and new). Throws, before writing, when the pixels do not match the size.
 */
export async function writePng(
  path: string,
  image: RgbaImage,
  open: { flags: string; mode: number },
): Promise<void> {
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(
      `A PNG needs a whole width and height of at least 1, not ${width} × ${height}.`,
    );
  }
  if (pixels.length !== width * height * 4) {
    throw new RangeError(
      `${width} × ${height} RGBA pixels are ${width * height * 4} bytes, but ${pixels.length} came.`,
    );
  }
  let first = true;
  await pipeline(
    Readable.from(scanlines(image)),
    // Level 1 (Z_BEST_SPEED): on the bench's 4K screenshot level 6 saved a fifth of the size for
    // twice the time; a screenshot is mostly flat colour, which the fastest level already packs.
    createDeflate({ level: constants.Z_BEST_SPEED, memLevel: 9, chunkSize: 256 * 1024 }),
    new Transform({
      transform(data: Buffer, _encoding, done) {
        if (first) this.push(header(width, height));
        first = false;
        done(null, chunk('IDAT', data));
      },
      flush(done) {
        if (first) this.push(header(width, height));
        done(null, chunk('IEND', new Uint8Array(0)));
      },
    }),
    createWriteStream(path, open),
  );
}
