// An image's width and height read from its header, so the page can decode it straight at
// thumbnail size (createImageBitmap's resizeWidth and resizeHeight) instead of decoding it whole
// first. Where each format keeps them: PNG, the IHDR chunk that must come first (PNG
// specification, 11.2.1: https://www.w3.org/TR/png-3/#11IHDR); JPEG, the first start-of-frame
// segment, SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC) (ITU T.81, B.2.2 and table B.1),
// turned by its EXIF orientation;
// WebP, the first chunk: VP8 (RFC 6386, 9.1), VP8L (RFC 9649, 3.2) or VP8X (RFC 9649, 2.7).
import type { SheetImageType } from '../../main/portable/image-bytes';

export interface Size {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);

/**
 * The EXIF orientation (tag 0x0112 of IFD0, TIFF 6.0 section 8; Exif 2.32, 4.6.4) in an APP1
 * segment starting at `at`, or 1. Chromium's createImageBitmap turns the image upright by it
 * (imageOrientation 'from-image', the default), so for 5 to 8 the width and height swap.
 */
function exifOrientation(b: Uint8Array, at: number): number {
  const tiff = at + 10;
  if (String.fromCharCode(...b.subarray(at + 4, at + 8)) !== 'Exif') return 1;
  const little = b[tiff] === 0x49;
  const u16 = (i: number) => (little ? u16le(b, i) : u16be(b, i));
  const u32 = (i: number) =>
    little ? u16le(b, i) + u16le(b, i + 2) * 65_536 : u16be(b, i) * 65_536 + u16be(b, i + 2);
  const ifd = tiff + u32(tiff + 4);
  const count = u16(ifd);
  for (let i = 0; i < count && ifd + 14 + i * 12 <= b.length; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) === 0x0112) return u16(entry + 8);
  }
  return 1;
}

function jpegSize(b: Uint8Array): Size | null {
  let at = 2;
  let orientation = 1;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    // Fill bytes, and the markers that have no length after them (RSTn, SOI, EOI, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
      at += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (marker === 0xe1 && orientation === 1) orientation = exifOrientation(b, at);
    if (isFrame) {
      const [height, width] = [u16be(b, at + 5), u16be(b, at + 7)];
      return orientation >= 5 && orientation <= 8
        ? { width: height, height: width }
        : { width, height };
    }
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): Size | null {
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  if (chunk === 'VP8 ') return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L') {
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = b.subarray(21, 25);
    return {
      width: 1 + (((b1 & 0x3f) << 8) | b0),
      height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)),
    };
  }
  if (chunk === 'VP8X') return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  return null;
}

/** The size the header says, or null when it cannot be read (the image is then decoded whole). */
export function imageSize(bytes: Uint8Array, type: SheetImageType): Size | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: Size | null = null;
  if (type === 'image/png' && bytes.length >= 24)
    size = { width: view.getUint32(16), height: view.getUint32(20) };
  else if (type === 'image/jpeg') size = jpegSize(bytes);
  else if (type === 'image/webp' && bytes.length >= 30) size = webpSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
