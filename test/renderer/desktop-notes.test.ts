// Notes about the desktop (GNOME's hidden tray icons, Wayland shortcuts) are shown where a
// person looks first: the drop view and Settings, not over the share sheet or the queue.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { launchBrowser, openApp, showView } from './browser';

const NOTE =
  'No Trayshare icon in the top bar? GNOME shows tray icons only with the AppIndicator extension.';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness({ desktopNotes: [NOTE] }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('notes about this desktop', () => {
  it('shows them on the drop view and in Settings, politely, and nowhere else', async () => {
    const { page, problems } = await openApp(browser, harness);
    const note = page.getByRole('status').filter({ hasText: NOTE });
    await note.waitFor();
    await showView(page, 'settings');
    await note.waitFor();
    await showView(page, 'queue');
    await expect.poll(() => note.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
