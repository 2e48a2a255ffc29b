// The committed icons under build/ are what make-icons.mjs draws, in the sizes and forms
// Electron and electron-builder expect.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDir, iconFiles } from './make-icons.mjs';

/** Decodes an 8-bit RGBA, non-interlaced PNG (any filter) to its pixels. */
function decodePng(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([...data.subarray(8, 13)]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= 4 ? (rgba[y * stride + i - 4] ?? 0) : 0;
      const b = y > 0 ? (rgba[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= 4 ? (rgba[(y - 1) * stride + i - 4] ?? 0) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter ?? 0] ?? 0;
      rgba[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return { width, height, rgba };
}

const decoded = new Map<string, ReturnType<typeof decodePng>>();
async function committed(name: string) {
  const known = decoded.get(name);
  if (known) return known;
  const png = decodePng(await readFile(join(buildDir, name)));
  decoded.set(name, png);
  return png;
}

describe('icons', () => {
  it('are committed exactly as make-icons.mjs draws them', async () => {
    for (const [name, [size, pixels]] of iconFiles()) {
      const png = await committed(name);
      expect([png.width, png.height], name).toEqual([size, size]);
      expect(
        Buffer.from(png.rgba).equals(Buffer.from(pixels())),
        `${name} differs: run node build/scripts/make-icons.mjs`,
      ).toBe(true);
    }
  });

  it('include every tray state at 1x and @2x, and the macOS template', async () => {
    for (const base of ['tray-idle', 'tray-uploading', 'tray-attention', 'trayTemplate']) {
      const one = await committed(`tray/${base}.png`);
      const two = await committed(`tray/${base}@2x.png`);
      expect(one.width).toBe(16);
      expect(two.width).toBe(32);
    }
  });

  it('tell the tray states apart', async () => {
    const states = await Promise.all(
      ['idle', 'uploading', 'attention'].map((s) => committed(`tray/tray-${s}.png`)),
    );
    const keys = states.map((s) => Buffer.from(s.rgba).toString('base64'));
    expect(new Set(keys).size).toBe(3);
  });

  it('draw macOS template images in black, the shape in alpha only', async () => {
    for (const name of [...iconFiles().keys()].filter((n) => n.includes('Template'))) {
      const { rgba } = await committed(name);
      let opaque = 0;
      let coloured = 0;
      for (let i = 0; i < rgba.length; i += 4) {
        if (rgba[i] || rgba[i + 1] || rgba[i + 2]) coloured++;
        if ((rgba[i + 3] ?? 0) > 128) opaque++;
      }
      expect(coloured, name).toBe(0);
      expect(opaque, name).toBeGreaterThan(20);
    }
  });

  it('give electron-builder an app icon of at least 512 px with transparent corners', async () => {
    const { width, height, rgba } = await committed('icon.png');
    expect(width).toBeGreaterThanOrEqual(512);
    expect(height).toBe(width);
    expect(rgba[3]).toBe(0);
    expect(rgba[((width * height) / 2) * 4 + (width / 2) * 4 + 3]).toBe(255);
  });

  it('read at 16 px on a light panel and a dark one: tiles at 3:1 or more against both, a crisp white glyph at 3:1 or more on the tile', async () => {
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => {
        const v = c / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const contrast = (a: number[], b: number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    for (const name of [
      'tray/tray-idle.png',
      'tray/tray-uploading.png',
      'tray/tray-attention.png',
      'icons/16x16.png',
    ]) {
      const { rgba } = await committed(name);
      const at = (x: number, y: number) => [
        ...rgba.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4),
      ];
      // (1, 7) is tile on every state, (3, 12) the tray's bottom-left corner.
      const tile = at(1, 7);
      expect(tile[3], name).toBe(255);
      expect(contrast(tile, [255, 255, 255]), `${name} on white`).toBeGreaterThanOrEqual(3);
      expect(contrast(tile, [0x1f, 0x1f, 0x1f]), `${name} on #1f1f1f`).toBeGreaterThanOrEqual(3);
      expect(at(3, 12), name).toEqual([255, 255, 255, 255]);
      // The tray's walls and floor are whole pixels: white, or tile, nothing in between.
      let white = 0;
      for (let y = 8; y < 13; y++) {
        for (let x = 2; x < 14; x++) {
          const [r, g, b] = at(x, y);
          if (r === 255 && g === 255 && b === 255) white++;
        }
      }
      expect(white, name).toBeGreaterThanOrEqual(24);
    }
  });
});
