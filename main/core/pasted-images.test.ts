// Pasted images as files: the name people see, what is refused, two pastes in one second.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../test/harness/tiny-png';
import { MAX_PASTED_IMAGE_BYTES } from '../portable/pasted-image-limit';
import { openPastedImages, pastedImageName } from './pasted-images';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-pasted-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pasted images', () => {
  it('are named for the local date and time of the paste, without colons', () => {
    const at = new Date(2026, 10, 25, 14, 3, 7);
    expect(pastedImageName(at)).toBe('Screenshot 2026-11-25 at 14.03.07.png');
    expect(pastedImageName(at, 2)).toBe('Screenshot 2026-11-25 at 14.03.07 (2).png');
  });

  it('writes the PNG as given; a second paste in the same second gets its own file', async () => {
    const images = openPastedImages(join(dir, 'pasted'));
    const at = new Date(2026, 0, 2, 3, 4, 5);
    const first = await images.save(TINY_PNG, at);
    const second = await images.save(TINY_PNG, at);
    expect(basename(first)).toBe('Screenshot 2026-01-02 at 03.04.05.png');
    expect(basename(second)).toBe('Screenshot 2026-01-02 at 03.04.05 (2).png');
    expect(await readFile(first)).toEqual(TINY_PNG);
  });

  it('refuses what is not a PNG, and an image over the limit, writing nothing', async () => {
    const images = openPastedImages(join(dir, 'pasted'));
    await expect(images.save(Buffer.from('GIF89a not a png'))).rejects.toThrow(
      'The pasted data is not a PNG image',
    );
    const huge = Buffer.alloc(MAX_PASTED_IMAGE_BYTES + 1);
    TINY_PNG.copy(huge);
    await expect(images.save(huge)).rejects.toThrow(
      /is 67.11 MB; Trayshare takes images up to 67 MB .*Save it to a file/,
    );
    await expect(readdir(join(dir, 'pasted'))).rejects.toThrow();
  });

  it('shows a capture by the thumbnail its tool made, or by the capture itself', async () => {
    const images = openPastedImages(join(dir, 'pasted'));
    const from = join(dir, 'tool.png');
    await writeFile(from, TINY_PNG);
    const thumbnail = new Uint8Array([1, 2, 3]);
    const withThumb = await images.keep(from, 'area', { thumbnail });
    const without = await images.keep(from, 'screen');
    expect(await images.readCapture(withThumb)).toEqual({ source: 'area', png: thumbnail });
    const plain = await images.readCapture(without);
    expect(plain?.source).toBe('screen');
    expect(Buffer.from(plain!.png)).toEqual(TINY_PNG);
    // The file itself is the capture, whatever is shown for it.
    expect(await readFile(withThumb)).toEqual(TINY_PNG);
    expect(await images.readCapture(from)).toBeNull();
  });
});
