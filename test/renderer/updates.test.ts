// Settings → About in real Chromium, over the browser harness with the app's update module and
// electron-updater's AppImageUpdater reading a generic feed on 127.0.0.1 (test/updates/):
// a failed check is a quiet line with "Check now", an update offers "Restart to update to X",
// and the preference turns automatic checks off.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { type Feed, startFeed } from '../updates/feed-server';
import { createTestUpdater, type TestUpdater } from '../updates/test-updater';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let feed: Feed;
let updater: TestUpdater;
let installs = 0;

beforeAll(async () => {
  feed = await startFeed();
  // The first check (at start) meets a captive portal's page instead of the feed.
  feed.set('html', '1.2.0');
  updater = await createTestUpdater({ feedUrl: feed.url, version: '1.1.0' });
  updater.updater.quitAndInstall = () => {
    installs++;
  };
  [harness, browser] = await Promise.all([
    startHarness({
      updates: {
        source: { updatesItself: true },
        createUpdater: () => updater.updater,
        timers: { setInterval: () => 0, clearInterval: () => undefined },
      },
    }),
    testBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await updater?.close();
  await feed?.close();
});

describe('Settings → About: updates', () => {
  it('a failed check is one quiet line; "Check now" finds the update; restart installs it', async () => {
    const { page } = await openApp(browser, harness);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await showView(page, 'settings');
    const about = page.getByRole('region', { name: 'About' });
    await expect
      .poll(() => about.locator('#update-status').textContent(), { timeout: 15_000 })
      .toBe("Couldn't check for updates (the update server answered something unexpected)");

    feed.set('offer', '1.2.0');
    await about.getByRole('button', { name: 'Check now' }).click();
    const restart = about.getByRole('button', { name: 'Restart to update to 1.2.0' });
    await restart.waitFor({ timeout: 15_000 });
    expect(await about.locator('#update-status').textContent()).toBe(
      'Trayshare 1.2.0 is ready. It installs when you restart or quit.',
    );

    // Nothing is uploading: the restart comes at once.
    await restart.click();
    await expect.poll(() => installs).toBe(1);
    await expect.poll(() => about.locator('#update-status').textContent()).toBe('Restarting…');
    expect(dialogs).toEqual([]);
    await closeApp(page);
  });

  it('"Check for updates automatically" is on by default and saved when turned off', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const box = page.getByRole('checkbox', { name: 'Check for updates automatically' });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await expect
      .poll(async () => (await harness.app.getSnapshot()).preferences.checkForUpdates)
      .toBe(false);
    expect(harness.updates.view().automatic).toBe(false);
    await closeApp(page);
  });
});
