// Pasted images as files: the name people see, what is refused, two pastes in one second.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../../test/harness/tiny-png';
import { MAX_EDITED_IMAGE_BYTES } from '../portable/image-bytes';
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

describe('images for the share sheet', () => {
  it('reads back only an image the person handed over, a PNG, JPEG or WebP by its bytes, within the bound', async () => {
    const images = openPastedImages(join(dir, 'pasted'));
    const png = join(dir, 'chart.png');
    const text = join(dir, 'notes.png');
    const big = join(dir, 'huge.png');
    await writeFile(png, TINY_PNG);
    await writeFile(text, 'not an image, whatever its name');
    await writeFile(big, Buffer.concat([TINY_PNG, Buffer.alloc(MAX_EDITED_IMAGE_BYTES)]));
    expect(await images.readImage(png)).toBeNull();
    images.offer([png, text, big, join(dir, 'gone.png')]);
    expect(await images.readImage(png)).toEqual({
      type: 'image/png',
      bytes: new Uint8Array(TINY_PNG),
    });
    expect(await images.readImage(text)).toBeNull();
    expect(await images.readImage(big)).toBeNull();
    expect(await images.readImage(join(dir, 'gone.png'))).toBeNull();
  });

  it('keeps an edited image as a new private file named after the original, which is left alone; a cancelled sheet discards it', async () => {
    const images = openPastedImages(join(dir, 'pasted'));
    const original = join(dir, 'photo.jpg');
    await writeFile(original, 'the original bytes');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const first = await images.saveEdited(jpeg, original);
    const second = await images.saveEdited(TINY_PNG, first);
    expect([basename(first), basename(second)]).toEqual([
      'photo (edited).jpg',
      'photo (edited).png',
    ]);
    expect(await images.saveEdited(TINY_PNG, second).then(basename)).toBe('photo (edited 2).png');
    if (process.platform !== 'win32') expect((await stat(first)).mode & 0o777).toBe(0o600);
    expect(await readFile(original, 'utf8')).toBe('the original bytes');
    // The page may show it (and edit it again).
    expect(await images.readImage(first)).toMatchObject({ type: 'image/jpeg' });
    await expect(images.saveEdited(Buffer.from('GIF89a'), original)).rejects.toThrow(
      'The edited image is not a PNG or JPEG',
    );
    images.discard(first);
    images.discard(original);
    await images.idle();
    expect((await readdir(join(dir, 'pasted'))).sort()).toEqual([
      'photo (edited 2).png',
      'photo (edited).png',
    ]);
    expect(await readFile(original, 'utf8')).toBe('the original bytes');
  });
});
