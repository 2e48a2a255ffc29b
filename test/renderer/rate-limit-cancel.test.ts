// After a rate-limited upload is cancelled (issue 36, point 6), the next file of that workspace
// still waits out the service's pause: its row says so, with the time left, rather than
// "Waiting for a free slot." while nothing is sending, and the time left counts down. Real
// Chromium, real core and service.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-ratelimit-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(SMALL_ONLY)('at %i×%i', (width, height) => {
  it('the file after a cancelled rate-limited one says what it waits for', async () => {
    harness.reference.injectFault({
      method: 'files.upload',
      fault: { kind: 'ratelimit', retryAfter: 30 },
    });
    // A workspace of its own: its pause outlasts this test.
    const busy = await harness.app.addWorkspace({
      name: `Slow ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(busy.id, DEMO_TOKEN);
    const target = { workspaceId: busy.id, channels: ['C0RANDOM'] };
    const paths = [];
    for (const name of [`limited-${width}.txt`, `next-${width}.txt`]) {
      const path = join(dir, name);
      await writeFile(path, name);
      paths.push(path);
    }
    const first = await harness.app.share({ target, paths: [paths[0]!] });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    await page
      .getByRole('listitem', { name: `limited-${width}.txt` })
      .locator('.badge--waiting')
      .waitFor();
    await harness.app.share({ target, paths: [paths[1]!] });
    await harness.app.cancelItem(first.items[0]!.id);
    await page
      .getByRole('listitem', { name: `limited-${width}.txt` })
      .locator('.badge--cancelled')
      .waitFor();
    const row = page.getByRole('listitem', { name: `next-${width}.txt` });
    await expect
      .poll(() => row.locator('.item__detail').textContent())
      .toMatch(/The service asked to slow down: it starts in \d+ s\.$/);
    expect(await row.locator('.item__detail').textContent()).not.toContain('free slot');
    // The count goes down while the row waits, as "Trying again in N s" does; nothing else
    // changes in the queue meanwhile to redraw it.
    const seconds = async () =>
      Number((await row.locator('.item__detail').textContent())?.match(/in (\d+) s\.$/)?.[1]);
    const before = await seconds();
    await expect.poll(seconds, { timeout: 5_000 }).toBeLessThan(before);
    expect(await axeAtSizes(page)).toEqual([]);
    for (const item of await harness.app.listQueue())
      if (item.state === 'queued' || item.state === 'waiting')
        await harness.app.cancelItem(item.id);
    await harness.app.removeWorkspace(busy.id);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});
