// The queue follows the person: it opens at the top after Share, with what is moving first,
// then what needs a decision, then what is done; a share is one row with its files inside;
// batch actions act on everything at once; the small drop window confirms and stays a target.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, itOnce, SIZES } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-queue-test-'));
}, 60_000);

afterEach(async () => {
  for (const item of await harness.app.listQueue())
    if (item.state === 'sending' || item.state === 'queued' || item.state === 'waiting')
      await harness.app.cancelItem(item.id);
  await harness.settled();
  await harness.app.clearFinished();
  harness.setThrottle(null);
  if ((await harness.app.getSnapshot()).paused) await harness.app.setPaused(false);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function bigFile(name: string): Promise<string> {
  const path = join(dir, name);
  const handle = await open(path, 'w');
  await handle.truncate(64 * 1024 * 1024);
  await handle.close();
  return path;
}

describe.each(SIZES)('at %i×%i', (width, height) => {
  // `test`: behaviour, run at 360×520 only; `it`: layout, at both sizes (sizes.ts).
  const test = itOnce(width);
  test('opens at the top after Share, the new share first as one row with its files', async () => {
    const { app, demo } = harness;
    // Old, finished uploads and one failure fill the queue before the new share.
    for (let i = 0; i < 6; i++)
      await app.share({
        target: { presetId: demo.randomPresetId },
        paths: [await file(`old-${i}.txt`, 'old')],
      });
    // A failure a retry can mend (an answer the app does not know): "Retry all failed" counts it.
    await harness.settled();
    harness.reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
    await app.share({
      target: { workspaceId: demo.workspaceId, channels: ['C0GENERAL'] },
      paths: [await file('refused.txt', 'no')],
    });
    await harness.settled();

    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    harness.setThrottle(1024 * 1024);
    harness.pick([
      await bigFile('recording.mov'),
      await file('notes.md', '# notes'),
      await file('logo.svg', '<svg/>'),
    ]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
    await page.locator('.app__main').evaluate((main) => {
      main.scrollTop = main.scrollHeight;
    });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    expect(await page.locator('.app__main').evaluate((main) => main.scrollTop)).toBe(0);

    const rows = page.getByRole('list', { name: 'Uploads' }).locator(':scope > li');
    const first = rows.first();
    // The destination by name (from the channel list), not as the IDs the service takes.
    await expect
      .poll(() => first.getAttribute('aria-label'))
      .toBe('3 files → #design-review, #general in Acme');
    const files = first.getByRole('list', { name: /^Files of 3 files/ });
    expect(await files.locator(':scope > li').count()).toBe(3);
    // Then the failure, then the finished ones.
    await expect.poll(() => rows.nth(1).locator('.badge').textContent()).toBe('Failed');
    expect(await rows.nth(2).locator('.badge').textContent()).toBe('Delivered');
    // The newest finished share first, with the same wording as History.
    expect(
      await rows.nth(2).getByRole('button', { name: 'Open in browser: old-5.txt' }).count(),
    ).toBe(1);
    // Overall progress for what is still to go, and the batch actions.
    expect(await page.getByRole('progressbar', { name: 'Overall progress' }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: 'Retry all failed (1)' }).isVisible()).toBe(true);

    // Pause all says what happens to the file already sending.
    await page.getByRole('button', { name: 'Pause all' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'paused' }).textContent())
      .toMatch(/1 file already sending finishes; cancel it to stop now\./);
    await page.getByRole('button', { name: 'Resume all' }).click();

    await page.getByRole('button', { name: 'Cancel all' }).click();
    await expect
      .poll(async () => (await harness.app.listQueue()).filter((i) => i.state === 'cancelled'))
      .toHaveLength(1);
    await expect.poll(() => page.getByRole('button', { name: 'Cancel all' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  test('shows the share just sent first, above rows that need attention, even once delivered', async () => {
    const { app, demo } = harness;
    // Three failures fill the top of a tray-sized window.
    for (let i = 0; i < 3; i++) {
      harness.reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
      await app.share({
        target: { workspaceId: demo.workspaceId, channels: ['C0GENERAL'] },
        paths: [await file(`failed-${i}-${width}.txt`, 'no')],
      });
      await harness.settled();
    }
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    harness.pick([await file(`just-shared-${width}.txt`, 'mine')]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    const mine = page.getByRole('listitem', { name: `just-shared-${width}.txt` });
    // Delivered (a small file goes in a blink), it is still the first row, in full view.
    await mine.locator('.badge--delivered').waitFor();
    expect(await mine.evaluate((row) => row.parentElement?.firstElementChild === row)).toBe(true);
    const inView = await mine.evaluate((row) => {
      const main = document.querySelector('.app__main')!.getBoundingClientRect();
      const box = row.getBoundingClientRect();
      return box.top >= main.top && box.bottom <= main.bottom;
    });
    expect(inView).toBe(true);
    expect(await axeAtSizes(page)).toEqual([]);
    // Elsewhere and back, the queue is in its usual order again: the failures first.
    await showView(page, 'history');
    await showView(page, 'queue');
    const rows = page.getByRole('list', { name: 'Uploads' }).locator(':scope > li');
    await expect.poll(() => rows.first().locator('.badge').textContent()).toBe('Failed');
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  it('folds a long share so thirty files do not take the whole queue', async () => {
    const paths = await Promise.all(
      Array.from({ length: 30 }, (_, i) => file(`photo-${i}.jpg`, `p${i}`)),
    );
    await harness.app.share({ target: { presetId: harness.demo.designPresetId }, paths });
    await harness.settled();
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const list = page.getByRole('list', { name: 'Uploads' });
    expect((await list.boundingBox())?.height).toBeLessThan(height / 2);
    await page.getByRole('button', { name: 'Show 30 files' }).click();
    expect(await list.getByRole('list').locator(':scope > li').count()).toBe(30);
    await closeApp(page);
  }, 60_000);
});

describe('what the queue says of itself', () => {
  it('the Drop view says what needs attention; the overall bar counts what the share row counts', async () => {
    const { app, demo } = harness;
    harness.reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
    await app.share({
      target: { workspaceId: demo.workspaceId, channels: ['C0GENERAL'] },
      paths: [await file('wobbled.txt', 'no')],
    });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 480, height: 640 });
    // The navigation's red dot and the Drop view's queue line say the same thing.
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Queue.*needs attention/ })
      .waitFor();
    const queueFact = page.locator('.facts__row').filter({ hasText: 'Queue' }).locator('dd');
    await expect.poll(() => queueFact.textContent()).toBe('1 failed');

    // Twelve files on a slow link: the top bar and the share's own row agree on how far it is.
    // Small files all go at once (ten to a slot), sharing the link, so they are of different
    // sizes (16 to 192 KiB) to end one after another rather than together.
    // 128 KiB/s keeps the share part-way for about eight seconds (1.2 MiB in all), long enough
    // for a loaded machine to read the two bars before the last file lands.
    harness.setThrottle(128 * 1024);
    const paths = [];
    for (let i = 0; i < 12; i++) {
      paths.push(await file(`part-${i}.txt`, 'x'.repeat((i + 1) * 16 * 1024)));
    }
    await app.share({ target: { workspaceId: demo.workspaceId, channels: ['C0GENERAL'] }, paths });
    await expect
      .poll(() => queueFact.textContent())
      .toMatch(/^\d+ uploads? in progress; 1 failed$/);
    await showView(page, 'queue');
    const share = page.getByRole('listitem', { name: /^12 files → #general in Acme/ });
    await expect
      .poll(() => share.locator(':scope > .item__head .badge').textContent())
      .toMatch(/^([1-9]|1[01]) of 12 delivered$/);
    const both = await page.evaluate(() => ({
      share: document.querySelector('.share > .item__head .badge')?.textContent ?? '',
      overall: document.querySelector('.batch__text')?.textContent ?? '',
    }));
    const delivered = both.share.replace(/ delivered$/, '');
    expect(
      both.overall.startsWith(`${delivered.replace('of 12', 'of 12 files')} delivered · `),
    ).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    harness.setThrottle(null);
    await closeApp(page);
  }, 60_000);
});

describe('the 240×240 drop window', () => {
  it('confirms a share and goes back to the drop target', async () => {
    const { page } = await openApp(browser, harness, { hash: 'drop-window' });
    await page.setViewportSize({ width: 240, height: 240 });
    harness.pick([await file('quick.txt', 'quick')]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    // The small sheet: Cancel and Share whole, inside the window, nothing sideways.
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    for (const name of ['Cancel', 'Share'])
      expect(await inside(page, page.getByRole('button', { name, exact: true }))).toBe(true);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const confirmation = page.getByRole('status').filter({ hasText: 'Shared.' });
    await confirmation.waitFor();
    // A compact confirmation and the drop target, both whole in 240×240: no queue, no
    // squashed rows with cut-off buttons.
    expect(await inside(page, confirmation)).toBe(true);
    expect(await inside(page, page.getByRole('button', { name: 'Choose files…' }))).toBe(true);
    expect(await page.getByRole('heading', { name: 'Queue' }).count()).toBe(0);
    expect(await page.locator('.item, .share').count()).toBe(0);
    // The next drop starts afresh: the confirmation gives way to the sheet.
    harness.pick([await file('next.txt', 'next')]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await confirmation.count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Choose files…' }).waitFor();
    await closeApp(page);
  });
});

/** Whether the element is whole inside the window, with no sideways scrolling. */
async function inside(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const size = page.viewportSize();
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  return Boolean(
    box &&
      size &&
      !sideways &&
      box.x >= 0 &&
      box.y >= 0 &&
      box.x + box.width <= size.width &&
      box.y + box.height <= size.height,
  );
}
