// "Pause all" says truthfully what it does: the file already sending finishes (and does), the
// ones waiting start on resume; a sending file is not counted as waiting.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOT_BYTES } from '../../main/core/upload/external/byte-budget';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-pause-test-'));
  // One slot, so one whole-slot file sends while the others wait.
  await harness.app.setPreferences({ concurrency: 1 });
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Pause all', () => {
  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`lets the file already sending finish and holds the waiting ones, and says so (${width}×${height})`, async () => {
      const { app, demo } = harness;
      const paths: string[] = [];
      for (const n of [1, 2, 3]) {
        const path = join(dir, `part-${width}-${n}.bin`);
        // A whole slot each (8 MiB): at one slot one sends while the others wait; smaller files
        // would go together, ten to a slot (the byte budget, upload/external/byte-budget.ts).
        await writeFile(path, Buffer.alloc(SLOT_BYTES, n));
        paths.push(path);
      }
      const mine = async () => (await app.listQueue()).filter((i) => paths.includes(i.path));
      // 10 s a file: long enough that a loaded machine opens the page and presses Pause while
      // the first file is still sending.
      harness.setThrottle(30_000);
      await app.share({ target: { presetId: demo.randomPresetId }, paths });
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await showView(page, 'queue');
      await expect
        .poll(async () => (await mine()).filter((i) => i.state === 'sending').length, {
          timeout: 10_000,
        })
        .toBe(1);
      await page.getByRole('button', { name: 'Pause all' }).click();
      const notice = page.getByRole('status').filter({ hasText: 'Uploads are paused.' });
      await expect
        .poll(() => notice.textContent(), { timeout: 10_000 })
        .toBe(
          'Uploads are paused. 1 file already sending finishes; cancel it to stop now. 2 files waiting start when you resume.',
        );
      const box = await notice.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);

      // What it said: the sending one is delivered while paused, the other two wait.
      harness.setThrottle(null);
      await expect
        .poll(async () => (await mine()).map((i) => i.state).sort(), { timeout: 15_000 })
        .toEqual(['delivered', 'queued', 'queued']);
      await expect
        .poll(() => notice.textContent(), { timeout: 10_000 })
        .toBe('Uploads are paused. 2 files waiting start when you resume.');
      await page.getByRole('button', { name: 'Resume all' }).click();
      await harness.settled(15_000);
      expect((await mine()).map((i) => i.state)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }
});
