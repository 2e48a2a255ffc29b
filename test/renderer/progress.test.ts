// A large upload shows its progress moving, and Cancel stops it before it reaches the service.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { launchBrowser, openApp } from './browser';

const SIZE = 64 * 1024 * 1024;
let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    // About 8 s for the whole file: long enough to watch, short if cancel were broken.
    startHarness({ throttleBytesPerSecond: 8 * 1024 * 1024 }),
    launchBrowser(),
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
    await page.close();
  }, 60_000);
});
