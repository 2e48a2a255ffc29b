// The keyboard path through the app: Choose files is the first Tab, picking files lands in the
// comment, Ctrl+Enter shares and lands on the queue's title, the file list is one Tab stop
// with arrow keys inside, Delete removes, Esc closes the sheet, and Share needs a file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp } from './browser';
import { testBrowser } from './shared-browser';
import { SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-keyboard-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function file(name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, name);
  return path;
}

/** What has focus, as a person would name it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') || el?.id || el?.textContent?.trim() || '';
  });

describe.each(SMALL_ONLY)('at %i×%i', (width, height) => {
  it('goes from Choose files to the queue by keyboard alone', async () => {
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Choose files…');

    harness.pick([await file('a.txt'), await file('b.txt'), await file('c.txt')]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
    expect(await focused(page)).toBe('share-comment');
    expect(await page.locator('#share-comment-help').textContent()).toBe(
      'Posted with the files. Ctrl+Enter shares.',
    );

    // The file list is one stop: arrows move inside it, Tab leaves it.
    await page.getByRole('button', { name: 'Remove a.txt' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Remove b.txt');
    await page.keyboard.press('End');
    expect(await focused(page)).toBe('Remove c.txt');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Add files…');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('Remove c.txt');
    await page.keyboard.press('Delete');
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Remove b.txt');

    await page.locator('#share-comment').focus();
    await page.keyboard.type('By keyboard');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    expect(await focused(page)).toBe('queue-title');
    await harness.settled();
    await closeApp(page);
  });

  it('closes the share sheet with Esc, and keeps Share off with no files', async () => {
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    harness.pick([await file('only.txt')]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('button', { name: 'Remove only.txt' }).click();
    expect(await page.getByRole('button', { name: 'Share', exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Drop files' }).waitFor();
    expect(
      await page.getByRole('navigation').getByRole('button', { name: 'Share sheet' }).count(),
    ).toBe(0);
    await closeApp(page);
  });
});
