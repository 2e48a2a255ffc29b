// An old draft is offered, not merged (issue 36, point 5), in real Chromium against the real
// core: Esc keeps a draft; new files join it while it is fresh; after ten minutes, or once its
// files were shared some other way, a new paste or drop starts a sheet of its own and the draft
// is offered there (its files added only when the person asks).
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, dropFiles, openApp } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const names = (page: Page) => page.locator('.file-list__name').allTextContents();

/** Twelve files dropped, then Esc keeps them as a draft. */
async function keepDraft(page: Page, tag: string): Promise<void> {
  await dropFiles(
    page,
    Array.from({ length: 12 }, (_, i) => ({ name: `${tag}-${i + 1}.txt`, content: `${i}` })),
  );
  await page.getByRole('heading', { name: 'Share 12 files' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('heading', { level: 1, name: 'Drop files' }).waitFor();
}

describe.each(SMALL_ONLY)('a kept draft at %i×%i', (width, height) => {
  it('takes new files while fresh; after ten minutes it is offered, not merged', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await keepDraft(page, `fresh-${width}`);
    await dropFiles(page, [{ name: `soon-${width}.txt`, content: 'soon' }]);
    await page.getByRole('heading', { name: 'Share 13 files' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Drop files' }).waitFor();

    // Eleven minutes on.
    await page.evaluate(() => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + 11 * 60_000;
    });
    await dropFiles(page, [{ name: `later-${width}.txt`, content: 'later' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await names(page)).toEqual([`later-${width}.txt`]);
    const offer = page.getByText(/^An earlier draft of 13 files, kept 11 minutes ago/);
    expect(await offer.isVisible()).toBe(true);
    expect(await axeAtSizes(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add its 13 files' }).click();
    await page.getByRole('heading', { name: 'Share 14 files' }).waitFor();
    expect(await offer.count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  it('once its files were shared some other way, new files start a sheet of their own', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await keepDraft(page, `elsewhere-${width}`);
    // The same files shared from the tray or a file manager (the core's share), not the sheet.
    const kept = (await harness.app.listQueue()).length;
    const draftOnDisk = async () =>
      (await readdir(harness.filesDir, { recursive: true }))
        .filter((f) => basename(f).startsWith(`elsewhere-${width}-`))
        .map((f) => join(harness.filesDir, f));
    // The harness writes dropped files to disk one by one behind the sheet (in the app they are
    // already files); on a loaded machine the sheet shows before the last is written.
    await expect.poll(async () => (await draftOnDisk()).length, { timeout: 15_000 }).toBe(12);
    const draftFiles = await draftOnDisk();
    await harness.app.share({
      target: { workspaceId: harness.demo.workspaceId, channels: ['C0GENERAL'] },
      paths: draftFiles,
    });
    expect((await harness.app.listQueue()).length).toBe(kept + 12);
    await dropFiles(page, [{ name: `next-${width}.txt`, content: 'next' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await names(page)).toEqual([`next-${width}.txt`]);
    await page.getByRole('button', { name: 'Discard the draft' }).click();
    expect(await page.getByText(/^An earlier draft/).count()).toBe(0);
    expect(await names(page)).toEqual([`next-${width}.txt`]);
    expect(problems).toEqual([]);
    await harness.settled();
    await harness.app.clearFinished();
    await closeApp(page);
  }, 60_000);
});
