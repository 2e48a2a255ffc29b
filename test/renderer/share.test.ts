// The share sheet in real Chromium against the real core and the reference service.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { dropFiles, launchBrowser, openApp } from './browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-share-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function waitForUploads(names: string[]) {
  await expect
    .poll(() => harness.reference.uploads().filter((u) => names.includes(u.name)).length, {
      timeout: 15_000,
    })
    .toBe(names.length);
  return harness.reference.uploads().filter((u) => names.includes(u.name));
}

describe('share sheet', () => {
  it('sends two dropped files to a preset with a comment', async () => {
    const { page, problems } = await openApp(browser, harness);
    await dropFiles(page, [
      { name: 'mockup-a.txt', content: 'first mockup' },
      { name: 'mockup-b.txt', content: 'second mockup, a little longer' },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'Random' });
    await page
      .getByLabel('Preset', { exact: true })
      .selectOption({ label: 'Design review (default)' });
    await page.getByLabel('Comment').fill('Mockups for Thursday');
    await expect
      .poll(() => page.locator('.summary').textContent())
      .toBe('2 files → #design-review (C0DESIGN), C0GENERAL in Acme, with comment');
    await page.getByRole('button', { name: 'Share', exact: true }).click();

    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    const uploads = await waitForUploads(['mockup-a.txt', 'mockup-b.txt']);
    for (const upload of uploads) expect(upload.channels).toEqual(['C0DESIGN', 'C0GENERAL']);
    // One message per file: the comment goes with the first file only.
    expect(uploads.map((u) => u.initial_comment).sort()).toEqual(['Mockups for Thursday', null]);
    expect(uploads.find((u) => u.name === 'mockup-b.txt')?.size).toBe(30);
    await expect
      .poll(() => page.locator('.share__files .badge--delivered').count(), { timeout: 15_000 })
      .toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('can be driven with the keyboard alone', async () => {
    const path = join(dir, 'keyboard.txt');
    await writeFile(path, 'typed, not clicked');
    harness.pick([path]);
    const { page } = await openApp(browser, harness);
    await page.keyboard.press('Tab');
    const choose = page.getByRole('button', { name: 'Choose files…' });
    // Tab through the navigation to the drop zone's button, as a keyboard user would.
    for (
      let i = 0;
      i < 12 && !(await choose.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();

    // Picking lands in the comment; focus walks back to the preset.
    expect(await page.getByLabel('Comment').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    const preset = page.getByLabel('Preset', { exact: true });
    for (
      let i = 0;
      i < 10 && !(await preset.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Shift+Tab');
    }
    expect(await preset.evaluate((el) => el === document.activeElement)).toBe(true);
    // A visible focus ring: the outline Chromium draws for :focus-visible.
    expect(await preset.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('ArrowDown'); // Design review (default) → Random
    await page.keyboard.press('Tab');
    expect(await page.getByLabel('Comment').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Sent from the keyboard');
    await page.keyboard.press('Control+Enter');

    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    const [upload] = await waitForUploads(['keyboard.txt']);
    expect(upload?.channels).toEqual(['C0RANDOM']);
    expect(upload?.initial_comment).toBe('Sent from the keyboard');
    await page.close();
  });

  it('checks typed channel IDs as you type and lists refused paths with the reason', async () => {
    const good = join(dir, 'notes.txt');
    await writeFile(good, 'notes');
    const missing = join(dir, 'gone.txt');
    harness.pick([good, missing]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    const channels = page.getByRole('combobox', { name: 'Channels' });
    await channels.fill('C0RANDOM, C0 DESIGN');
    await channels.press('Enter');
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toContain('contains a space');
    await channels.fill('C0RANDOM, C0DESIGN');
    await channels.press('Enter');
    await expect.poll(() => channels.inputValue()).toBe('');
    await expect
      .poll(() => page.locator('.summary').textContent())
      .toBe('2 files → #random (C0RANDOM), #design-review (C0DESIGN) in Acme, no comment');
    await page.getByRole('button', { name: 'Share', exact: true }).click();

    await page.getByRole('heading', { name: '1 file queued' }).waitFor();
    const refused = page.locator('.refused li');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain('gone.txt');
    const [upload] = await waitForUploads(['notes.txt']);
    expect(upload?.channels).toEqual(['C0RANDOM', 'C0DESIGN']);
    expect(upload?.initial_comment).toBeNull();
    await page.close();
  });

  it('opens for paths the shell hands over: pending at start, then share-requested', async () => {
    const first = join(dir, 'from-tray.txt');
    const second = join(dir, 'from-file-manager.txt');
    await writeFile(first, 'tray');
    await writeFile(second, 'file manager');
    harness.setPending([first]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    harness.emit('share-requested', { paths: [second] });
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    expect(await page.locator('.file-list__name').allTextContents()).toEqual([
      'from-tray.txt',
      'from-file-manager.txt',
    ]);
    harness.emit('show-view', 'history');
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    // The files are kept while the person looks elsewhere.
    await page.getByRole('button', { name: 'Share sheet' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await page.close();
  });
});
