// A large upload shows its progress moving, and Cancel stops it before it reaches the service.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp } from './browser';
import { testBrowser } from './shared-browser';

const SIZE = 64 * 1024 * 1024;
let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    // About 8 s for the whole file: long enough to watch, short if cancel were broken.
    startHarness({ throttleBytesPerSecond: 8 * 1024 * 1024 }),
    testBrowser(),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-progress-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a large upload', () => {
  it('shows progress moving with a speed, and Cancel stops it', async () => {
    const path = join(dir, 'big.bin');
    const file = await open(path, 'w');
    await file.truncate(SIZE);
    await file.close();
    harness.pick([path]);

    const { page } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Progress of big.bin' });
    await bar.waitFor({ timeout: 15_000 });
    const value = () => bar.evaluate((el) => (el as HTMLProgressElement).value);
    await expect.poll(value, { timeout: 15_000 }).toBeGreaterThan(0);
    const first = await value();
    await expect.poll(value, { timeout: 15_000 }).toBeGreaterThan(first);
    expect(await bar.evaluate((el) => (el as HTMLProgressElement).max)).toBe(SIZE);
    await expect
      .poll(() => page.locator('.item__detail').first().textContent(), { timeout: 10_000 })
      .toMatch(/MB of 67 MB · [\d.]+ MB\/s · about \d+ s left/);

    await page.getByRole('button', { name: 'Cancel big.bin' }).click();
    await page.locator('.badge--cancelled').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry big.bin' }).isVisible()).toBe(true);
    // Nothing reached the service: the request was aborted mid-body.
    expect(harness.reference.uploads()).toEqual([]);
    await closeApp(page);
  }, 60_000);
});

describe('a small upload on a slow link', () => {
  it('moves the bar at least 4 times a second (700 KB at 1 MB/s)', async () => {
    harness.setThrottle(1_000_000);
    const path = join(dir, 'small.bin');
    await writeFile(path, Buffer.alloc(700 * 1024, 7));
    harness.pick([path]);
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    // Watch every value the bar shows, frame by frame, from before Share until it is gone.
    const watching = page.evaluate(
      () =>
        new Promise<{ at: number; value: number }[]>((resolve) => {
          const seen: { at: number; value: number }[] = [];
          let started = false;
          const tick = () => {
            const bar = document.querySelector<HTMLProgressElement>(
              'progress[aria-label="Progress of small.bin"]',
            );
            if (bar) {
              started = true;
              if (seen.at(-1)?.value !== bar.value)
                seen.push({ at: performance.now(), value: bar.value });
            } else if (started) {
              seen.push({ at: performance.now(), value: -1 });
              return resolve(seen);
            }
            requestAnimationFrame(tick);
          };
          tick();
        }),
    );
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const seen = await watching;
    harness.setThrottle(8 * 1024 * 1024);
    const moving = seen.filter((s) => s.value > 0 && s.value < 700 * 1024);
    const seconds = (seen.at(-1)!.at - seen[0]!.at) / 1000;
    // The whole upload takes at least 0.7 s at 1 MB/s: at least 4 moves a second of it.
    expect(seconds).toBeGreaterThan(0.6);
    expect(moving.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(Math.floor(seconds * 4));
    await closeApp(page);
  }, 30_000);
});
