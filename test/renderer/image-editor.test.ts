// Images in the share sheet, in real Chromium against the real core: a dropped PNG or JPEG gets
// the thumbnail a capture gets, and the image editor (Edit…) redacts, marks up and crops before
// the image leaves. What a person checks: the picture, and the file the channel received, read
// back from the reference service and decoded: the redacted pixels are gone, the rest is as it
// was, the original on disk is untouched, and a photo's location and thumbnail did not leave.
import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import jpeg from 'jpeg-js';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCapturer } from '../../main/core/capture/capturers';
import { startTestPortal, type TestPortal } from '../capture/test-portal';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, openApp, type Scheme, screenshot, showView } from './browser';
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

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Opens the editor on a row's image and waits until the image is drawn, ready to edit. */
async function openEditor(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await page.getByRole('dialog', { name: 'Edit image' }).waitFor();
  await page.locator('canvas.image-editor__canvas[data-ready="true"]').waitFor();
}

/** Drags on the editor's canvas between two points given in the image's own pixels. */
async function dragOnImage(
  page: Page,
  imageWidth: number,
  from: [number, number],
  to: [number, number],
): Promise<void> {
  const box = (await page.locator('canvas.image-editor__canvas').boundingBox())!;
  const k = box.width / imageWidth;
  await page.mouse.move(box.x + from[0] * k, box.y + from[1] * k);
  await page.mouse.down();
  await page.mouse.move(box.x + ((from[0] + to[0]) / 2) * k, box.y + ((from[1] + to[1]) / 2) * k);
  await page.mouse.move(box.x + to[0] * k, box.y + to[1] * k);
  await page.mouse.up();
}

/** Waits until the editor has encoded the file ahead of Done (its mark, image-editor.tsx). */
async function encodedAhead(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('image-editor:ahead').length), {
      // Chromium starts the idle encode unprompted only after 1 s (image-flatten.ts).
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
}

/** Presses Tab until the focused element has this accessible name (a keyboard user's path). */
async function tabTo(page: Page, name: string, back = false): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const focused = await page.evaluate(
      () =>
        document.activeElement?.getAttribute('aria-label') ??
        document.activeElement?.textContent?.trim() ??
        '',
    );
    if (focused === name) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}

/** Every pixel inside the box is opaque black, every other one as in the original. */
function expectRedacted(got: Decoded, original: Decoded, box: [number, number, number, number]) {
  expect([got.width, got.height]).toEqual([original.width, original.height]);
  const [x0, y0, x1, y1] = box;
  let inside = 0;
  let changed = 0;
  for (let y = 0; y < got.height; y++) {
    for (let x = 0; x < got.width; x++) {
      const p = pixel(got, x, y).join();
      if (x >= x0 && x < x1 && y >= y0 && y < y1) {
        if (p !== '0,0,0,255') inside++;
      } else if (p !== pixel(original, x, y).join()) changed++;
    }
  }
  expect({ notBlackInside: inside, changedOutside: changed }).toEqual({
    notBlackInside: 0,
    changedOutside: 0,
  });
}

/** The RGBA pixel at (x, y) of a decoded image. */
type Decoded = { width: number; height: number; data: Uint8Array | Buffer };
const pixel = (img: Decoded, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

/** The file the reference service received under this name, after `before` uploads. */
async function received(harness: Harness, name: string, before: number): Promise<Buffer> {
  await expect
    .poll(
      () =>
        harness.reference
          .uploads()
          .slice(before)
          .map((u) => u.name),
      { timeout: 15_000 },
    )
    .toContain(name);
  const upload = harness.reference
    .uploads()
    .slice(before)
    .find((u) => u.name === name)!;
  return readFile(harness.reference.storedPath(upload.id));
}

/** Where the harness saved a dropped file (it stands in for the path Electron's webUtils gives). */
async function droppedPath(harness: Harness, name: string): Promise<string> {
  for (const id of await readdir(harness.filesDir)) {
    const path = join(harness.filesDir, id, name);
    if (await exists(path)) return path;
  }
  throw new Error(`${name} was not dropped`);
}

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
    await closeApp(page);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('a dropped PNG, JPEG or WebP shows its thumbnail as a capture does, a sideways-stored photo upright', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    // A phone's photo stored sideways, with the EXIF orientation that turns it upright.
    const dir = await mkdtemp(join(tmpdir(), 'turned-'));
    await writeFile(join(dir, 'turned.jpg'), await quarters(page, 240, 320, 'image/jpeg'));
    await run('exiftool', [
      '-q',
      '-overwrite_original',
      '-n',
      '-Orientation=6',
      join(dir, 'turned.jpg'),
    ]);
    await dropImages(page, [
      { name: 'chart.png', bytes: png, type: 'image/png' },
      { name: 'photo.jpg', bytes: jpg, type: 'image/jpeg' },
      {
        name: 'diagram.webp',
        bytes: await quarters(page, 400, 300, 'image/webp'),
        type: 'image/webp',
      },
      { name: 'turned.jpg', bytes: await readFile(join(dir, 'turned.jpg')), type: 'image/jpeg' },
    ]);
    await page.getByRole('heading', { name: 'Share 4 files' }).waitFor();
    for (const [name, size, corner] of [
      ['chart.png', ['85px', '64px'], 'top'],
      ['photo.jpg', ['85px', '64px'], 'top'],
      ['diagram.webp', ['85px', '64px'], 'top'],
      // 240×320 stored, 320×240 upright: as wide as the others, not squeezed, and turned (its
      // dark quarter, stored at the top right, is at the bottom right once upright).
      ['turned.jpg', ['85px', '64px'], 'bottom'],
    ] as const) {
      const thumb = page.getByRole('img', { name: `Preview of ${name}` });
      await page.locator(`canvas[aria-label="Preview of ${name}"][data-drawn="true"]`).waitFor();
      expect(
        await thumb.evaluate((c: HTMLCanvasElement) => [c.style.width, c.style.height]),
      ).toEqual(size);
      // The picture itself: the dark quarter.
      const [r, g, b] = await thumb.evaluate(
        (c: HTMLCanvasElement, at) => [
          ...c.getContext('2d')!.getImageData(c.width - 4, at === 'top' ? 4 : c.height - 4, 1, 1)
            .data,
        ],
        corner,
      );
      expect(
        [r, g, b].map((v, k) => Math.abs(v! - [0x1d, 0x1d, 0x1f][k]!) < 12),
        name,
      ).toEqual([true, true, true]);
    }
    expect(problems).toEqual([]);
    await closeApp(page);
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
    await closeApp(page);
  });

  it('redacts a dropped PNG on a HiDPI screen: the channel gets the box in solid black, every other pixel as it was, an undone box not at all; the original is untouched', async () => {
    const { page, problems } = await openApp(browser, harness, { deviceScaleFactor: 2 });
    await page.setViewportSize({ width: 480, height: 640 });
    await dropImages(page, [{ name: 'chart.png', bytes: png, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await openEditor(page, 'chart.png');
    expect(await axeViolations(page)).toEqual([]);
    // Redact is the tool the editor opens with; across the white and dark quarters.
    await dragOnImage(page, 400, [150, 40], [260, 100]);
    // A second box, undone with the keyboard: none of it may reach the channel.
    await dragOnImage(page, 400, [40, 200], [120, 260]);
    await page.keyboard.press('Control+z');
    await expect(page.getByRole('button', { name: 'Redo' }).isEnabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
    const row = page.locator('.file-list__item');
    await expect(row.locator('.file-list__name').textContent()).resolves.toBe('chart (edited).png');
    await expect(row.getByText('edited', { exact: true }).isVisible()).resolves.toBe(true);
    // Kept as a private file beside the captures (0600), the original left as it was.
    const pasted = join(dirname(harness.filesDir), 'app', 'state', 'pasted');
    const kept = join(pasted, 'chart (edited).png');
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
    // Kept while the sheet is closed with Esc, as the rest of a draft is.
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor({ state: 'detached' });
    await dropImages(page, [{ name: 'notes.png', bytes: png, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByText('chart (edited).png').waitFor();
    await page.getByRole('button', { name: 'Remove notes.png' }).click();

    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, 'chart (edited).png', before));
    expectRedacted(sent, PNG.sync.read(png), [150, 40, 260, 100]);
    expect(await readFile(await droppedPath(harness, 'chart.png'))).toEqual(png);
    const item = (await harness.app.listQueue()).find((i) => i.name === 'chart (edited).png')!;
    await expect
      .poll(async () => (await harness.app.listHistory({ limit: 5 })).map((e) => e.name))
      .toContain('chart (edited).png');
    // The edited file goes once delivered.
    expect(item.path).toBe(kept);
    await expect.poll(() => exists(kept)).toBe(false);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('three images dropped at once each open in the editor, again after Cancel, and the one edited arrives redacted', async () => {
    // The sheet keeps the full-size images it decoded for their thumbnails for the editor, two at
    // most: Edit on any of the three, and Edit again after Cancel, must show the image all the same.
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    const names = ['one.png', 'two.png', 'three.png'];
    await dropImages(
      page,
      names.map((name) => ({ name, bytes: png, type: 'image/png' })),
    );
    await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
    await expect
      .poll(() => page.locator('canvas.capture-preview__thumb[data-drawn="true"]').count())
      .toBe(3);
    // The latest two first (kept), each twice (given back on Cancel), then the first (not kept).
    for (const name of ['three.png', 'three.png', 'two.png', 'one.png', 'one.png', 'three.png']) {
      await openEditor(page, name);
      // Drawn: the canvas holds the image's pixels, not a blank.
      const drawn = await page
        .locator('canvas.image-editor__canvas')
        .evaluate((c: HTMLCanvasElement) => {
          const g = c.getContext('2d')!;
          return [...g.getImageData(2, 2, 1, 1).data].join();
        });
      expect(drawn).toBe('255,255,255,255');
      const dialog = page.getByRole('dialog', { name: 'Edit image' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await openEditor(page, 'one.png');
    await dragOnImage(page, 400, [150, 40], [260, 100]);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('one (edited).png').waitFor();
    for (const name of ['two.png', 'three.png']) {
      await page.getByRole('button', { name: `Remove ${name}` }).click();
    }
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, 'one (edited).png', before));
    expectRedacted(sent, PNG.sync.read(png), [150, 40, 260, 100]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a JPEG with a location and an embedded thumbnail arrives as a JPEG with neither', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'exif-'));
    const [photo, thumb] = [join(dir, 'photo.jpg'), join(dir, 'thumb.jpg')];
    await writeFile(photo, jpg);
    await writeFile(thumb, jpg);
    await run('exiftool', [
      '-q',
      '-overwrite_original',
      '-GPSLatitude=48.8584',
      '-GPSLatitudeRef=N',
      '-GPSLongitude=2.2945',
      '-GPSLongitudeRef=E',
      '-SerialNumber=CAM-0042',
      `-ThumbnailImage<=${thumb}`,
      photo,
    ]);
    const tagged = await readFile(photo);
    const tags = async (path: string) =>
      JSON.parse((await run('exiftool', ['-j', '-G', path])).stdout)[0] as Record<string, unknown>;
    expect(Object.keys(await tags(photo))).toEqual(
      expect.arrayContaining(['EXIF:GPSLatitude', 'EXIF:ThumbnailImage']),
    );

    const { page, problems } = await openApp(browser, harness, { scheme: 'dark' });
    await page.setViewportSize({ width: 480, height: 640 });
    await dropImages(page, [{ name: 'photo.jpg', bytes: tagged, type: 'image/jpeg' }]);
    await openEditor(page, 'photo.jpg');
    await page.keyboard.press('b');
    await expect(
      page.getByRole('button', { name: 'Box' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await dragOnImage(page, 320, [40, 40], [200, 150]);
    // An arrow and a label too, for docs/interface.md's picture of the editor.
    await page.keyboard.press('a');
    await dragOnImage(page, 320, [290, 220], [210, 160]);
    await page.keyboard.press('t');
    await page.getByRole('textbox', { name: 'Text' }).fill('Here');
    await dragOnImage(page, 320, [20, 190], [20, 190]);
    await screenshot(page, 'image-editor', 'dark');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('photo (edited).jpg').waitFor();
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const bytes = await received(harness, 'photo (edited).jpg', before);
    const out = join(dir, 'received.jpg');
    await writeFile(out, bytes);
    const left = await tags(out);
    expect(left['File:FileType']).toBe('JPEG');
    expect(Object.keys(left).filter((k) => /GPS|Thumbnail|Serial/.test(k))).toEqual([]);
    // The red box is in the pixels (a JPEG's colours are near, not equal).
    const decoded = jpeg.decode(bytes, { useTArray: true });
    const [r, g, b] = pixel(decoded, 40, 100);
    expect(r! > 180 && g! < 80 && b! < 100).toBe(true);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
  it('edits left with Esc survive closing the sheet with Esc: the row says so, Edit brings them back with their undo, Done sends them', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    await dropImages(page, [{ name: 'board.png', bytes: png, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await openEditor(page, 'board.png');
    await dragOnImage(page, 400, [20, 20], [120, 90]);
    // Esc leaves the editor, not yet applied; a second Esc closes the sheet as a kept draft.
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
    await page.getByText('edits not applied').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor({ state: 'detached' });
    await dropImages(page, [{ name: 'notes.png', bytes: png, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByRole('button', { name: 'Remove notes.png' }).click();
    await openEditor(page, 'board.png');
    await expect(
      page.locator('canvas.image-editor__canvas').getAttribute('aria-label'),
    ).resolves.toMatch(/^board\.png, 1 mark\./);
    await expect(page.getByRole('button', { name: 'Undo' }).isEnabled()).resolves.toBe(true);
    // Left alone, the editor encodes the file ahead of Done: Done then sends those bytes.
    await encodedAhead(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('board (edited).png').waitFor();
    expect(await page.getByText('edits not applied').count()).toBe(0);
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, 'board (edited).png', before));
    expectRedacted(sent, PNG.sync.read(png), [20, 20, 120, 90]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a PNG with a transparent quarter, encoded ahead with one box, then undone, boxed elsewhere and Done at once: the channel gets only the second box, the transparent quarter still clear', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    // The editor flattens on the same canvas each time: what it drew before must not show
    // through the transparent pixels of the next file.
    const see = PNG.sync.read(png);
    for (let y = 150; y < 300; y++) see.data.fill(0, (y * 400 + 200) * 4, (y * 400 + 400) * 4);
    const clear = PNG.sync.write(see);
    await dropImages(page, [{ name: 'glass.png', bytes: clear, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await openEditor(page, 'glass.png');
    await dragOnImage(page, 400, [220, 170], [380, 280]);
    await encodedAhead(page);
    await page.keyboard.press('Control+z');
    await dragOnImage(page, 400, [20, 20], [120, 90]);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('glass (edited).png').waitFor();
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, 'glass (edited).png', before));
    expect(pixel(sent, 300, 225)).toEqual([0, 0, 0, 0]);
    expectRedacted(sent, see, [20, 20, 120, 90]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('Cancel drops edits in progress: the next Edit starts clean', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    await dropImages(page, [{ name: 'plan.png', bytes: png, type: 'image/png' }]);
    await openEditor(page, 'plan.png');
    await dragOnImage(page, 400, [20, 20], [120, 90]);
    await page
      .getByRole('dialog', { name: 'Edit image' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
    expect(await page.getByText('edits not applied').count()).toBe(0);
    await openEditor(page, 'plan.png');
    await expect(
      page.locator('canvas.image-editor__canvas').getAttribute('aria-label'),
    ).resolves.toMatch(/^plan\.png, 0 marks\./);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('edits left unapplied end with the share that sent the file, or with Cancel on the sheet: the same file dropped again starts clean', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    const dir = await mkdtemp(join(tmpdir(), 'left-'));
    const path = join(dir, 'slide.png');
    await writeFile(path, png);
    const pickSlide = async () => {
      await showView(page, 'drop');
      harness.pick([path]);
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    };
    for (const leave of ['Share', 'Cancel']) {
      await pickSlide();
      await openEditor(page, 'slide.png');
      await dragOnImage(page, 400, [20, 20], [120, 90]);
      await page.keyboard.press('Escape');
      await page.getByText('edits not applied').waitFor();
      await page.getByRole('button', { name: leave, exact: true }).click();
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor({ state: 'detached' });
      await pickSlide();
      expect(await page.getByText('edits not applied').count()).toBe(0);
      await openEditor(page, 'slide.png');
      await expect(
        page.locator('canvas.image-editor__canvas').getAttribute('aria-label'),
      ).resolves.toMatch(/^slide\.png, 0 marks\./);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    }
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('by keyboard alone, N selects each mark in turn (a screen reader is told which), arrow keys move it, Delete removes it', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    await dropImages(page, [{ name: 'keys.png', bytes: png, type: 'image/png' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await tabTo(page, 'Edit keys.png', true);
    await page.keyboard.press('Enter');
    await page.locator('canvas.image-editor__canvas[data-ready="true"]').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('CANVAS');
    const told = page.locator('.image-editor [aria-live="polite"]');
    // A redaction, then a box, both a quarter of the image in its middle (100×75 at 150,113);
    // the box is moved down out of the way (4 px a step on a 400 px image).
    await page.keyboard.press('Enter');
    await page.keyboard.press('b');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
    // N goes round to the first mark: the redaction, which two steps move left by 8 px.
    await page.keyboard.press('n');
    await expect(told.textContent()).resolves.toBe(
      'Redaction, mark 1 of 2, at 150, 113, 100 by 75, selected',
    );
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    // N again: the box, and Delete takes it away.
    await page.keyboard.press('n');
    await expect(told.textContent()).resolves.toBe(
      'Box, mark 2 of 2, at 150, 233, 100 by 75, selected',
    );
    await page.keyboard.press('Delete');
    await expect(told.textContent()).resolves.toBe('Box removed, 1 mark left.');
    await tabTo(page, 'Done');
    await page.keyboard.press('Enter');
    await page.getByText('keys (edited).png').waitFor();
    await tabTo(page, 'Share');
    const before = harness.reference.uploads().length;
    await page.keyboard.press('Enter');
    const sent = PNG.sync.read(await received(harness, 'keys (edited).png', before));
    expectRedacted(sent, PNG.sync.read(png), [142, 113, 242, 188]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('an edited lossy WebP photo is sent as a JPEG, a lossless WebP as a PNG', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    // Chromium's WebP encoder is lossy below quality 1 and lossless at 1.
    const webp = async (quality: number) =>
      Buffer.from(
        await page.evaluate(async (q) => {
          const canvas = new OffscreenCanvas(200, 150);
          const g = canvas.getContext('2d')!;
          g.fillStyle = '#2f5d8a';
          g.fillRect(0, 0, 200, 150);
          const blob = await canvas.convertToBlob({ type: 'image/webp', quality: q });
          return [...new Uint8Array(await blob.arrayBuffer())];
        }, quality),
      );
    // Chromium writes an extended file (VP8X) with an alpha chunk even for an opaque canvas; a
    // camera's or phone's lossy WebP is the simple kind: the RIFF header and one "VP8 " chunk.
    const extended = await webp(0.8);
    const at = extended.indexOf('VP8 ');
    const chunk = extended.subarray(at, at + 8 + extended.readUInt32LE(at + 4));
    const lossy = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), chunk]);
    lossy.writeUInt32LE(lossy.length - 8, 4);
    const lossless = await webp(1);
    expect(lossy.subarray(12, 16).toString()).toBe('VP8 ');
    expect(lossless.includes('VP8L')).toBe(true);
    for (const [name, bytes, sentName, signature] of [
      ['beach.webp', lossy, 'beach (edited).jpg', 'ffd8ff'],
      ['chart.webp', lossless, 'chart (edited).png', '89504e47'],
    ] as const) {
      await dropImages(page, [{ name, bytes, type: 'image/webp' }]);
      await openEditor(page, name);
      await dragOnImage(page, 200, [10, 10], [60, 60]);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByText(sentName).waitFor();
      const before = harness.reference.uploads().length;
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const got = await received(harness, sentName, before);
      expect(got.subarray(0, signature.length / 2).toString('hex'), name).toBe(signature);
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      await page.getByRole('navigation').getByRole('button', { name: 'Drop files' }).click();
    }
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});

describe.skipIf(process.platform !== 'linux')('editing a capture, by keyboard alone', () => {
  let harness: Harness;
  let browser: Browser;
  let portal: TestPortal;
  let png: Buffer;

  beforeAll(async () => {
    [harness, browser, portal] = await Promise.all([
      startHarness(),
      testBrowser(),
      startTestPortal(),
    ]);
    const { page } = await openApp(browser, harness);
    png = await quarters(page, 800, 500, 'image/png');
    await closeApp(page);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await portal?.close();
  });

  it('Tab to Edit, Enter places a redaction, arrow keys move it, Done and Share: the channel gets it redacted; axe passes at both sizes in both schemes', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    portal.answer({ kind: 'file', png });
    await harness.capture(portalCapturer(portal.address));
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    const name = (await page.locator('.file-list__name').textContent())!;
    await tabTo(page, `Edit ${name}`, true);
    await page.keyboard.press('Enter');
    await page.locator('canvas.image-editor__canvas[data-ready="true"]').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('CANVAS');
    for (const [width, height] of [
      [360, 520],
      [480, 640],
    ] as const) {
      for (const scheme of ['light', 'dark'] as Scheme[]) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        // The buttons' colours ease into the new scheme: axe reads them once they are there.
        await page.evaluate(() =>
          Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
        );
        expect(await axeViolations(page), `${width}×${height} ${scheme}`).toEqual([]);
      }
    }
    // A quarter of the image in its middle (200×125 at 300,188), then two steps left (8 px each).
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await tabTo(page, 'Done');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
    const edited = name.replace(/\.png$/, ' (edited).png');
    await page.getByText(edited).waitFor();
    await tabTo(page, 'Share');
    const before = harness.reference.uploads().length;
    await page.keyboard.press('Enter');
    const sent = PNG.sync.read(await received(harness, edited, before));
    expectRedacted(sent, PNG.sync.read(png), [284, 188, 484, 313]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('with "Open captures in the editor", a capture opens in the editor at once; Esc leaves it as it was; "Send smaller" scales it to the preferred long edge, still a PNG', async () => {
    await harness.app.setPreferences({ openCapturesInEditor: true, sendSmallerEdge: 640 });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    portal.answer({ kind: 'file', png });
    await harness.capture(portalCapturer(portal.address));
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor();
    await page.locator('canvas.image-editor__canvas[data-ready="true"]').waitFor();
    const name = (await page.locator('.file-list__name').textContent())!;
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Edit image' }).waitFor({ state: 'detached' });
    // Esc left the editor only: the sheet is still there, with the capture unedited.
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await page.locator('.file-list__edited').count()).toBe(0);

    await openEditor(page, name);
    await page.getByRole('checkbox', { name: 'Send smaller (640 px long edge)' }).check();
    await page.getByRole('button', { name: 'Done' }).click();
    const edited = name.replace(/\.png$/, ' (edited).png');
    await page.getByText(edited).waitFor();
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, edited, before));
    expect([sent.width, sent.height]).toEqual([640, 400]);
    // The dark quarter is still dark, the white one still white, after the filter.
    expect(pixel(sent, 600, 20).slice(0, 3)).toEqual([0x1d, 0x1d, 0x1f]);
    expect(pixel(sent, 20, 20).slice(0, 3)).toEqual([255, 255, 255]);
    await harness.app.setPreferences({ openCapturesInEditor: false, sendSmallerEdge: 2560 });
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('Crop keeps only the box dragged: the channel gets exactly those pixels', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    portal.answer({ kind: 'file', png });
    await harness.capture(portalCapturer(portal.address));
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    const name = (await page.locator('.file-list__name').textContent())!;
    await openEditor(page, name);
    await page.getByRole('button', { name: 'Crop' }).click();
    await dragOnImage(page, 800, [300, 150], [700, 400]);
    await page.getByRole('button', { name: 'Done' }).click();
    const edited = name.replace(/\.png$/, ' (edited).png');
    await page.getByText(edited).waitFor();
    const before = harness.reference.uploads().length;
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const sent = PNG.sync.read(await received(harness, edited, before));
    const original = PNG.sync.read(png);
    expect([sent.width, sent.height]).toEqual([400, 250]);
    let differ = 0;
    for (let y = 0; y < sent.height; y++)
      for (let x = 0; x < sent.width; x++)
        if (pixel(sent, x, y).join() !== pixel(original, x + 300, y + 150).join()) differ++;
    expect(differ).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
