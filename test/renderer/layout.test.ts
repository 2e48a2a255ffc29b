// Tray-size layouts: at a tray popover's size (360×520) and the default window (480×640),
// every view fits its width with nothing cut off, the top bar shows every section, and the
// share sheet's sticky footer stays small and never covers the field that has focus.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { cutOff } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-layout-test-'));
}, 60_000);

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

describe.each([
  [360, 520],
  [480, 640],
])('at %i×%i', (width, height) => {
  it('every view fits: nothing cut off, every section in the top bar', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    const seen: Record<string, string[]> = {};
    seen.drop = await cutOff(page);

    harness.pick([
      await file('a-screenshot-with-a-rather-long-file-name-from-the-desktop.png', 'png'),
      await file('notes.md', '# notes'),
    ]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    seen.share = await cutOff(page);
    // Every section of the top bar, the share sheet's included, is on screen.
    for (const label of ['Drop files', 'Share sheet', 'Queue', 'History', 'Presets', 'Settings'])
      expect(
        await page.getByRole('navigation').getByRole('button', { name: label }).isVisible(),
      ).toBe(true);
    for (const remove of await page.getByRole('button', { name: /^Remove / }).all())
      expect(await remove.isVisible()).toBe(true);
    // The channel picker (issue 13) with its list open is the widest state of the sheet.
    await page.getByRole('radio', { name: 'Channels' }).check();
    const picker = page.getByRole('combobox', { name: 'Channels' });
    await picker.fill('des');
    seen['share, channels'] = await cutOff(page);
    await picker.press('Escape');

    await showView(page, 'queue');
    seen.queue = await cutOff(page);
    await showView(page, 'history');
    seen.history = await cutOff(page);
    const search = page.getByRole('searchbox');
    expect((await search.boundingBox())?.width).toBeGreaterThanOrEqual(150);
    await showView(page, 'presets');
    seen.presets = await cutOff(page);
    await page.getByRole('button', { name: 'Edit Design review' }).click();
    await page.getByRole('heading', { name: 'Edit “Design review”' }).waitFor();
    seen['preset editor'] = await cutOff(page);
    // The editor's channel box, with its list open, stays inside the window.
    const editorPicker = page.getByRole('combobox', { name: 'Add a channel' });
    await editorPicker.fill('des');
    seen['preset editor, channels'] = await cutOff(page);
    await editorPicker.press('Escape');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await showView(page, 'settings');
    seen.settings = await cutOff(page);
    // The fields a person types into are wide enough to read what they hold.
    for (const label of [/^Name$/, /^Base URL$/, /^Token/, /^Global shortcut/]) {
      const box = await page.getByLabel(label).first().boundingBox();
      expect(box?.width, String(label)).toBeGreaterThanOrEqual(180);
    }

    expect(seen).toEqual(
      Object.fromEntries(Object.keys(seen).map((view) => [view, [] as string[]])),
    );
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  it('keeps the share sheet and preset editor footers small and never hides the focused field behind them', async () => {
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    harness.pick([await file('one.txt', 'one'), await file('two.txt', 'two')]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    const footer = page.locator('.sheet__footer');
    const footerBox = await footer.boundingBox();
    expect(footerBox?.height).toBeLessThanOrEqual(height * 0.25);

    // Tab through every field of the sheet: each one, when focused, is above the footer.
    const covered = await coveredWhileTabbing(page);
    expect(covered).toEqual([]);

    // The preset editor has the same sticky footer (Save, Cancel).
    await page.keyboard.press('Escape');
    await showView(page, 'presets');
    await page.getByRole('button', { name: 'Edit Design review' }).click();
    await page.getByRole('heading', { name: 'Edit “Design review”' }).waitFor();
    const editorFooter = await page.locator('.sheet__footer').boundingBox();
    expect(editorFooter?.height).toBeLessThanOrEqual(height * 0.25);
    expect(await coveredWhileTabbing(page)).toEqual([]);
    await closeApp(page);
  }, 60_000);
});

describe.each([
  [360, 520],
  [480, 640],
])('the share sheet at %i×%i', (width, height) => {
  it('opens at the top: its heading under the navigation, the comment focused and clear of the footer with its hint', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    harness.pick([
      await file(`first-${width}.txt`, 'one'),
      await file(`second-${width}.txt`, 'two'),
      await file(`third-${width}.txt`, 'three'),
    ]);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 3 files' }).waitFor();
    // Once the file sizes are in: what a person sees when the sheet has settled.
    await page
      .getByText(/^Total: /)
      .first()
      .waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('share-comment');
    const seen = await page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      const nav = box('.nav');
      const footer = box('.sheet__footer');
      const title = box('#share-title');
      const comment = box('#share-comment');
      const hint = box('#share-comment-help');
      return {
        scrolled: document.querySelector('.app__main')!.scrollTop,
        titleUnderNav: title.top >= nav.bottom - 0.5,
        commentClear: comment.top >= nav.bottom - 0.5 && comment.bottom <= footer.top + 0.5,
        hintClear: hint.bottom <= footer.top + 0.5,
      };
    });
    expect(seen).toEqual({ scrolled: 0, titleUnderNav: true, commentClear: true, hintClear: true });
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});

/** Tabs through a view with a sticky footer: every field that takes focus above the footer is fine; the rest are listed. */
async function coveredWhileTabbing(page: Page): Promise<string[]> {
  const covered: string[] = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const foot = document.querySelector('.sheet__footer');
      if (!el || !foot || foot.contains(el)) return { done: true, covered: 0, name: '' };
      return {
        done: false,
        covered: el.getBoundingClientRect().bottom - foot.getBoundingClientRect().top,
        name: el.id || el.getAttribute('aria-label') || el.textContent || el.tagName,
      };
    });
    if (state.done) break;
    if (state.covered > 0) covered.push(`${state.name} by ${Math.round(state.covered)} px`);
  }
  return covered;
}

describe('at 900×700', () => {
  it('puts the drop target beside the default preset, the queue and the last uploads, not in a huge empty box', async () => {
    await harness.app.share({
      target: { presetId: harness.demo.designPresetId },
      paths: [await file('sent-before.txt', 'sent before')],
    });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width: 900, height: 700 });
    const zone = await page.locator('.dropzone').boundingBox();
    expect(zone?.height).toBeLessThanOrEqual(700 * 0.6);
    expect(zone?.width).toBeLessThanOrEqual(900 * 0.6);
    const recent = page.getByRole('region', { name: 'Recent uploads' });
    await recent.getByText('sent-before.txt').waitFor();
    // Beside the target, at its top, not under it.
    for (const beside of [recent, page.getByText('Default preset', { exact: true })]) {
      const box = await beside.boundingBox();
      expect(box && zone && box.x >= zone.x + zone.width && box.y < zone.y + zone.height).toBe(
        true,
      );
    }
    expect(await cutOff(page)).toEqual([]);
    await recent.getByRole('button', { name: 'All uploads in History' }).click();
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
