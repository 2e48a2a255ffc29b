// Every view, light and dark: no axe violation, no CSP or script error, reduced motion
// respected; and a screenshot of each for docs/interface.md (test/screenshots/<view>-<scheme>.png).
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import {
  axeViolations,
  closeApp,
  docsImage,
  openApp,
  type Scheme,
  screenshot,
  showView,
} from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, cutOff } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function folder(name: string, sizes: Record<string, number>): Promise<string> {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  for (const [file, size] of Object.entries(sizes))
    await writeFile(join(path, file), 'x'.repeat(size));
  return path;
}

// Queue and history with one item in each state people meet, made through the real core.
async function fillQueueAndHistory(): Promise<void> {
  const { app, demo, reference } = harness;
  await app.share({
    target: { presetId: demo.designPresetId },
    comment: 'Final logo, please review',
    paths: [
      await file('logo-final.svg', '<svg/>'),
      await file('brand-guide.pdf', 'x'.repeat(48_000)),
    ],
  });
  await app.share({
    target: { workspaceId: demo.workspaceId, channels: ['C0SECRET'] },
    paths: [await file('salaries.xlsx', 'secret')],
  });
  await harness.settled();
  reference.injectFault({ fault: { kind: 'reset-after-body' } });
  await app.share({
    target: { presetId: demo.randomPresetId },
    paths: [await file('minutes.txt', 'minutes')],
  });
  await harness.settled();
  // One upload stays in flight, slowly, so the queue shows a moving progress bar.
  harness.setThrottle(1024 * 1024);
  const big = join(dir, 'screen-recording.mov');
  const handle = await open(big, 'w');
  await handle.truncate(48 * 1024 * 1024);
  await handle.close();
  await app.share({ target: { presetId: demo.designPresetId }, paths: [big] });
}

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-views-test-'));
  await fillQueueAndHistory();
}, 60_000);

afterAll(async () => {
  if (harness) {
    for (const item of await harness.app.listQueue()) {
      if (item.state === 'sending' || item.state === 'queued')
        await harness.app.cancelItem(item.id);
    }
  }
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// docs/interface.md shows each view at the default window (480×640) and a tray popover's size
// (360×520). At each, in each scheme, the view passes axe and nothing is cut off: the one place
// every view is checked at both sizes in both schemes (the behaviour tests run at one size).
async function check(page: Page, name: string, scheme: Scheme): Promise<void> {
  expect(await axeAtSizes(page), `${name} (${scheme})`).toEqual([]);
  await page.setViewportSize({ width: 360, height: 520 });
  expect(await cutOff(page), `${name} at 360×520 (${scheme})`).toEqual([]);
  await screenshot(page, `${name}-360`, scheme);
  await page.setViewportSize({ width: 480, height: 640 });
  expect(await cutOff(page), `${name} at 480×640 (${scheme})`).toEqual([]);
  await screenshot(page, name, scheme);
}

describe.each(['light', 'dark'] as const)('every view in %s mode', (scheme) => {
  it('passes axe, and is saved as a screenshot', async () => {
    const { page, problems } = await openApp(browser, harness, { scheme });
    await page.setViewportSize({ width: 480, height: 640 });

    await check(page, 'drop', scheme);
    // A large window: the target beside the default preset, the queue and the last uploads.
    await page.setViewportSize({ width: 900, height: 700 });
    await page
      .getByRole('region', { name: 'Recent uploads' })
      .getByRole('listitem')
      .first()
      .waitFor();
    await screenshot(page, 'drop-900', scheme);
    await page.setViewportSize({ width: 480, height: 640 });

    harness.pick([
      await file('homepage-hero.png', 'p'.repeat(184_000)),
      await file('notes.md', '# notes'),
      await folder('mockups', { 'desktop.png': 412_000, 'mobile.png': 96_000 }),
    ]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    // A folder counts as the files inside it, with its size.
    await page.getByRole('heading', { name: 'Share 4 files' }).waitFor();
    await page.getByText('Folder · 2 files · 508 KB').waitFor();
    await page.getByLabel('Comment').fill('New homepage, round two');
    await check(page, 'share', scheme);
    if (scheme === 'light') {
      // README's picture (docs/images/share-sheet.png): the whole sheet, in a large window.
      await page.setViewportSize({ width: 900, height: 800 });
      await page.getByRole('heading', { name: 'Share 4 files' }).scrollIntoViewIfNeeded();
      await docsImage(page, 'share-sheet');
      await page.setViewportSize({ width: 480, height: 640 });
    }
    await page.getByRole('button', { name: 'Cancel' }).click();

    await showView(page, 'queue');
    await page.getByRole('progressbar', { name: 'Progress of screen-recording.mov' }).waitFor();
    // Any speed: the throttle aims at 1 MB/s, but a busy machine wakes its timers late, and
    // the row then says KB/s (two renderer files at a time missed a wait for "MB/s" often).
    await page
      .locator('.item--sending .item__detail')
      .filter({ hasText: /(bytes|KB|MB)\/s/ })
      .waitFor();
    await page.locator('.badge--unknown').waitFor();
    await check(page, 'queue', scheme);

    await showView(page, 'history');
    await page.locator('.badge--failed').waitFor();
    await check(page, 'history', scheme);

    await showView(page, 'presets');
    await check(page, 'presets', scheme);
    await page.getByRole('button', { name: 'Edit Design review' }).click();
    await page.getByRole('heading', { name: 'Edit “Design review”' }).waitFor();
    await check(page, 'preset-editor', scheme);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await showView(page, 'settings');
    await check(page, 'settings', scheme);

    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});

describe('the drop window and motion', () => {
  it.each(['light', 'dark'] as const)(
    'shows only the drop target in the small drop window (%s), and passes axe',
    async (scheme) => {
      const { page } = await openApp(browser, harness, { hash: 'drop-window', scheme });
      await page.setViewportSize({ width: 240, height: 240 });
      // Once the drop target shows, the page has rendered: no top bar beside it.
      await page.getByRole('button', { name: 'Choose files…' }).waitFor();
      expect(await page.getByRole('navigation').count()).toBe(0);
      expect(await axeViolations(page), `drop-window (${scheme})`).toEqual([]);
      await screenshot(page, 'drop-window', scheme);
      await closeApp(page);
    },
  );

  it('drops transitions when the system asks for reduced motion', async () => {
    const moving = await openApp(browser, harness);
    const still = await openApp(browser, harness, { reducedMotion: 'reduce' });
    const duration = (page: Page) =>
      page
        .getByRole('button', { name: 'Choose files…' })
        .evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(await duration(moving.page)).not.toMatch(/^0s(, 0s)*$/);
    expect(await duration(still.page)).toMatch(/^0s(, 0s)*$/);
    await closeApp(moving.page);
    await closeApp(still.page);
  });
});
