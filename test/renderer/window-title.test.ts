// The window's title is the page's <title> (Electron lets it replace the BrowserWindow's own):
// each view names itself, and the drop window keeps the name it was created with, as the
// taskbar, Alt+Tab and screen readers show it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWindows } from '../../main/electron/windows';
import { DROP_WINDOW_TITLE } from '../../renderer/src/window-title';
import { type Harness, startHarness } from '../harness/server';
import { FakeWindowFactory } from '../shell/fake-electron';
import { PRELOAD, RENDERER } from '../shell/shell-harness';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('window titles', () => {
  it('name the view the main window shows', async () => {
    const { page, problems } = await openApp(browser, harness);
    await expect.poll(() => page.title()).toBe('Trayshare');
    for (const [view, title] of [
      ['queue', 'Queue – Trayshare'],
      ['history', 'History – Trayshare'],
      ['presets', 'Presets – Trayshare'],
      ['settings', 'Settings – Trayshare'],
      ['drop', 'Trayshare'],
    ] as const) {
      await showView(page, view);
      await expect.poll(() => page.title()).toBe(title);
    }
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('keep the drop window’s own name, the one the shell creates it with', async () => {
    const factory = new FakeWindowFactory();
    createWindows({
      createWindow: factory.create,
      renderer: RENDERER,
      preloadPath: PRELOAD,
      openExternal: () => undefined,
      log: () => undefined,
      platform: 'win32',
    }).showDropWindow();
    expect(factory.created[0]!.options.title).toBe(DROP_WINDOW_TITLE);

    const { page, problems } = await openApp(browser, harness, { hash: 'drop-window' });
    await expect.poll(() => page.title()).toBe(DROP_WINDOW_TITLE);
    expect(DROP_WINDOW_TITLE).toBe('Drop files to share');
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
