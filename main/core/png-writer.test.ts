// The PNG main writes from an edited image's pixels: decoded by another PNG reader (pngjs), it
// holds exactly the pixels given, whatever the size, and the file is private.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePng } from './png-writer';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-png-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Pixels no compressor can shorten, with every alpha value, so nothing is left to luck. */
function noise(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  let seed = 11;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 16;
  }
  return pixels;
}

const PRIVATE_NEW = { flags: 'wx', mode: 0o600 };

describe('writePng', () => {
  it.each([
    [1, 1],
    [3, 2],
    // More rows than one batch sent to zlib, and a width that is not a multiple of anything.
    [1021, 700],
  ])('writes %i × %i RGBA pixels that decode to the same pixels', async (width, height) => {
    const pixels = noise(width, height);
    const path = join(dir, 'out.png');
    await writePng(path, { width, height, pixels }, PRIVATE_NEW);
    const decoded = PNG.sync.read(await readFile(path));
    expect([decoded.width, decoded.height]).toEqual([width, height]);
    expect(Buffer.compare(decoded.data, Buffer.from(pixels))).toBe(0);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('refuses pixels that do not match the size, and writes no file', async () => {
    const path = join(dir, 'out.png');
    await expect(
      writePng(path, { width: 2, height: 2, pixels: new Uint8Array(15) }, PRIVATE_NEW),
    ).rejects.toThrow('2 × 2 RGBA pixels are 16 bytes, but 15 came.');
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('never overwrites a file already there when asked for a new one', async () => {
    const path = join(dir, 'out.png');
    await writePng(path, { width: 1, height: 1, pixels: new Uint8Array(4) }, PRIVATE_NEW);
    await expect(
      writePng(path, { width: 1, height: 1, pixels: new Uint8Array([9, 9, 9, 9]) }, PRIVATE_NEW),
    ).rejects.toMatchObject({ code: 'EEXIST' });
    expect(PNG.sync.read(await readFile(path)).data).toEqual(Buffer.alloc(4));
  });
});
