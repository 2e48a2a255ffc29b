// Draws Trayshare's icons (an up-arrow rising out of a tray) and writes them as PNG with
// nothing but node:zlib, so they can be regenerated on any machine: `node build/scripts/make-icons.mjs`.
// Shapes are signed distance functions on a 16-unit design grid (edges on whole units stay
// crisp at 16 px); coverage comes from the distance, so every size is anti-aliased alike.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

// ---- shapes (design units, y down) ----

const length = (x, y) => Math.sqrt(x * x + y * y);

const box = (x0, y0, x1, y1, r = 0) => {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hx = (x1 - x0) / 2 - r;
  const hy = (y1 - y0) / 2 - r;
  return (x, y) => {
    const qx = Math.abs(x - cx) - hx;
    const qy = Math.abs(y - cy) - hy;
    return length(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
};

// Exact distance to a convex polygon given clockwise (screen coordinates) vertices.
const polygon = (points) => (x, y) => {
  let inside = true;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < points.length; i++) {
    const [ax, ay] = points[i];
    const [bx, by] = points[(i + 1) % points.length];
    const ex = bx - ax;
    const ey = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)));
    best = Math.min(best, length(x - ax - ex * t, y - ay - ey * t));
    if (ex * (y - ay) - ey * (x - ax) < 0) inside = false;
  }
  return inside ? -best : best;
};

const union =
  (...shapes) =>
  (x, y) => {
    let d = Number.POSITIVE_INFINITY;
    for (const s of shapes) d = Math.min(d, s(x, y));
    return d;
  };

// Everything on whole units of the 16-unit grid, so at 16 px (1 unit = 1 px) and 32 px every
// straight edge falls on a pixel edge: the mark reads at tray size instead of blurring.
const tray = union(box(3, 8, 5, 13, 0.4), box(11, 8, 13, 13, 0.4), box(3, 11, 13, 13, 0.4));

// The arrow rises out of the tray; `lift` units higher while uploading (on its way).
const arrow = (lift) =>
  union(
    polygon([
      [8, 2 - lift],
      [12, 6 - lift],
      [4, 6 - lift],
    ]),
    box(7, 5.5 - lift, 9, 10 - lift),
  );

const exclamation = union(box(7, 1, 9, 7, 0.5), box(7, 8, 9, 10, 0.6));

/** The glyph of each tray state: idle and uploading (arrow lifted, on its way) and attention. */
export const glyphs = {
  idle: union(tray, arrow(0)),
  uploading: union(tray, arrow(1)),
  attention: union(tray, exclamation),
};

/** The rounded tile the glyph sits on, filling the 16-unit grid. */
const tile = box(0, 0, 16, 16, 3);

// ---- raster ----

const clamp01 = (v) => Math.max(0, Math.min(1, v));

/**
 * Renders `paint(u, v, coverageOf)` for each pixel of a size×size image into RGBA bytes;
 * u, v are design units (0..16) at the pixel centre, coverageOf(shape) its anti-aliased
 * coverage there. paint returns [r, g, b, a] with 0..1 channels, not premultiplied.
 */
export function render(size, paint) {
  const rgba = new Uint8Array(size * size * 4);
  const unitsPerPixel = 16 / size;
  let u = 0;
  let v = 0;
  const coverageOf = (shape, scale = 1, ox = 0, oy = 0) =>
    clamp01(0.5 - (shape((u - ox) / scale, (v - oy) / scale) * scale) / unitsPerPixel);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      u = (px + 0.5) * unitsPerPixel;
      v = (py + 0.5) * unitsPerPixel;
      const [r, g, b, a] = paint(u, v, coverageOf);
      const o = (py * size + px) * 4;
      rgba[o] = Math.round(clamp01(r) * 255);
      rgba[o + 1] = Math.round(clamp01(g) * 255);
      rgba[o + 2] = Math.round(clamp01(b) * 255);
      rgba[o + 3] = Math.round(clamp01(a) * 255);
    }
  }
  return rgba;
}

const hex = (h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16) / 255);

/**
 * Tray tiles (Windows and Linux): a white glyph on a mid-tone tile reads on a light panel and on
 * a dark one alike, which a bare coloured glyph does not (grey on a dark panel fades). Each tile
 * keeps at least 3:1 against white and against #1f1f1f, and white on it at least 3:1.
 */
export const trayColors = { idle: '#2f6fdf', uploading: '#1a8a6a', attention: '#d5422f' };

const mixWhite = (color, white) => color.map((c) => c + (1 - c) * white);

/** A white glyph on a coloured tile, the tile's edge anti-aliased into transparency. */
const tileIcon = (size, glyph, top, bottom = top) =>
  render(size, (_u, v, cov) => {
    const tileCov = cov(tile);
    if (tileCov === 0) return [0, 0, 0, 0];
    const t = clamp01(v / 16);
    const color = top.map((c, i) => c + (bottom[i] - c) * t);
    return [...mixWhite(color, cov(glyph)), tileCov];
  });

export const trayIcon = (state, size) => tileIcon(size, glyphs[state], hex(trayColors[state]));

/** macOS template image: black, shape in alpha only; the system tints it for the menu bar. */
export const templateIcon = (state, size) =>
  render(size, (_u, _v, cov) => [0, 0, 0, cov(glyphs[state])]);

const appTop = hex('#4c8ff7');
const appBottom = hex('#1f55d1');

/**
 * App icon: the white glyph on a blue rounded square. At 16 and 32 px the glyph fills the tile
 * on the pixel grid (as in the tray); larger, it sits inside the macOS icon grid's margin.
 */
export const appIcon = (size) => {
  if (size <= 32) return tileIcon(size, glyphs.idle, appTop, appBottom);
  const body = box(1.25, 1.25, 14.75, 14.75, 2.9);
  const scale = 0.62;
  const offset = 8 - 8 * scale;
  return render(size, (_u, v, cov) => {
    const bodyCov = cov(body);
    if (bodyCov === 0) return [0, 0, 0, 0];
    const white = cov(glyphs.idle, scale, offset, offset + 0.1);
    const t = clamp01((v - 1.25) / 13.5);
    const color = appTop.map((c, i) => c + (appBottom[i] - c) * t);
    return [...mixWhite(color, white), bodyCov];
  });
};

// ---- PNG ----

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};

/** Encodes 8-bit RGBA pixels as PNG (filter "Up" on every row: smooth gradients compress well). */
export function encodePng(width, rgba, height = width) {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 2;
    for (let i = 0; i < stride; i++) {
      const above = y > 0 ? rgba[(y - 1) * stride + i] : 0;
      raw[y * (stride + 1) + 1 + i] = (rgba[y * stride + i] - above) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every icon file under build/, relative path → [size, pixels()]. */
export function iconFiles() {
  const files = new Map();
  for (const state of ['idle', 'uploading', 'attention']) {
    files.set(`tray/tray-${state}.png`, [16, () => trayIcon(state, 16)]);
    files.set(`tray/tray-${state}@2x.png`, [32, () => trayIcon(state, 32)]);
  }
  files.set('tray/trayTemplate.png', [16, () => templateIcon('idle', 16)]);
  files.set('tray/trayTemplate@2x.png', [32, () => templateIcon('idle', 32)]);
  for (const state of ['uploading', 'attention']) {
    const name = `tray${state[0].toUpperCase()}${state.slice(1)}Template`;
    files.set(`tray/${name}.png`, [16, () => templateIcon(state, 16)]);
    files.set(`tray/${name}@2x.png`, [32, () => templateIcon(state, 32)]);
  }
  files.set('icon.png', [1024, () => appIcon(1024)]);
  for (const size of [16, 32, 48, 64, 128, 256, 512]) {
    files.set(`icons/${size}x${size}.png`, [size, () => appIcon(size)]);
  }
  return files;
}

export const buildDir = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  for (const [name, [size, pixels]] of iconFiles()) {
    const file = join(buildDir, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, encodePng(size, pixels()));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
