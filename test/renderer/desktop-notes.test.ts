// Notes about the desktop (GNOME's hidden tray icons, Wayland shortcuts) are shown where a
// person looks first: the drop view and Settings, not over the share sheet or the queue.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { View } from '../../preload/contract';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, dropFiles, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

const NOTE =
  'No Trayshare icon in the top bar? GNOME shows tray icons only with the AppIndicator extension.';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness({ desktopNotes: [NOTE] }), testBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

// Every view the navigation offers, and whether the note belongs there: a Record over the views,
// so a new view has to say.
const SHOWN_ON: Record<Exclude<View, 'share'>, boolean> = {
  drop: true,
  settings: true,
  queue: false,
  history: false,
  presets: false,
};

describe('notes about this desktop', () => {
  it('shows them on the drop view and in Settings, politely, and nowhere else (every other view, and the share sheet)', async () => {
    const { page, problems } = await openApp(browser, harness);
    const note = page.getByRole('status').filter({ hasText: NOTE });
    await note.waitFor();
    for (const [view, shown] of Object.entries(SHOWN_ON) as [Exclude<View, 'share'>, boolean][]) {
      await showView(page, view);
      if (shown) await note.waitFor();
      else await expect.poll(() => note.count(), { message: view }).toBe(0);
    }
    await showView(page, 'drop');
    await note.waitFor();
    await dropFiles(page, [{ name: 'noted.txt', content: 'n' }]);
    await page.getByRole('heading', { level: 1, name: /^Share / }).waitFor();
    await expect.poll(() => note.count(), { message: 'share sheet' }).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
