// Ctrl/Cmd+V in the window with a screenshot on the clipboard, in real Chromium against the real
// core and the reference service: the image becomes a PNG named for the paste, is shared like a
// file, and its temporary copy is gone once delivered. At a tray popover's size and the default.
import { access } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Pastes an image made in the page, as the clipboard hands a screenshot to Chromium. */
async function pasteImage(page: Page, type: 'image/png' | 'image/jpeg'): Promise<void> {
  await page.evaluate(async (mime) => {
    const canvas = new OffscreenCanvas(64, 48);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#3366cc';
    ctx.fillRect(0, 0, 64, 48);
    const blob = await canvas.convertToBlob({ type: mime });
    const data = new DataTransfer();
    data.items.add(
      new File([blob], mime === 'image/png' ? 'image.png' : 'image.jpg', { type: mime }),
    );
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data }),
    );
  }, type);
}

describe('pasting an image', () => {
  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`shares a pasted screenshot as a dated PNG, then removes the copy (${width}×${height})`, async () => {
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      const before = harness.reference.uploads().length;
      await pasteImage(page, 'image/png');
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
      const name = page.locator('.file-list__name');
      await expect
        .poll(() => name.textContent())
        .toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d( \(\d+\))?\.png$/);
      const fileName = (await name.textContent())!;
      const share = page.getByRole('button', { name: 'Share', exact: true });
      // Nothing cut off at this size: the Share button is inside the window.
      const box = await share.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(height);
      await share.click();
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      await expect
        .poll(
          () =>
            harness.reference
              .uploads()
              .slice(before)
              .map((u) => u.name),
          { timeout: 15_000 },
        )
        .toEqual([fileName]);
      const item = (await harness.app.listQueue()).find((i) => i.name === fileName)!;
      await expect
        .poll(() => harness.app.listQueue().then((q) => q.find((i) => i.id === item.id)?.state))
        .toBe('delivered');
      await expect.poll(() => exists(item.path)).toBe(false);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it('turns a pasted JPEG into a PNG, and leaves text pasted into a field to the field', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    await pasteImage(page, 'image/jpeg');
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await expect.poll(() => page.locator('.file-list__name').textContent()).toMatch(/\.png$/);
    const comment = page.getByLabel('Comment');
    await comment.focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'pasted words');
      document.activeElement!.dispatchEvent(
        new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data }),
      );
    });
    // Still the one image: the text paste added no file and showed no error.
    await expect(page.getByRole('heading', { name: 'Share 1 file' }).isVisible()).resolves.toBe(
      true,
    );
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
