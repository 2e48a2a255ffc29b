// Settings → About in real Chromium, for copies a package manager installed: what the core's
// install detection decides (main/core/updates/) is what the person reads, and a copy that
// updates through its manager offers no "Check now".
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installMethod } from '../../main/core/updates/install-method';
import { updateSource } from '../../main/core/updates/update-source';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let browser: Browser;

beforeAll(async () => {
  browser = await testBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The update source the shell would compute for a packaged copy with these facts. */
function sourceFor(platform: NodeJS.Platform, exePath: string, files: string[], env = {}) {
  const install = installMethod({
    platform,
    exePath,
    home: '/Users/ana',
    env,
    exists: (path) => files.includes(path),
  });
  return updateSource({ platform, isPackaged: true, packageType: null, env, install });
}

async function aboutOf(harness: Harness) {
  const { page, problems } = await openApp(browser, harness);
  await showView(page, 'settings');
  return { page, problems, about: page.getByRole('region', { name: 'About' }) };
}

describe('Settings → About says how this copy was installed', () => {
  it('Homebrew: it updates itself, and names the brew command', async () => {
    const harness = await startHarness({
      updates: {
        source: sourceFor('darwin', '/Applications/Trayshare.app/Contents/MacOS/Trayshare', [
          '/opt/homebrew/Caskroom/trayshare',
        ]),
        createUpdater: () => {
          throw new Error('no update feed in this test');
        },
        timers: { setInterval: () => 0, clearInterval: () => undefined },
      },
    });
    try {
      const { page, about } = await aboutOf(harness);
      await expect
        .poll(() => about.locator('#update-install-note').textContent())
        .toBe('Installed with Homebrew: it updates itself, or run brew upgrade --cask trayshare.');
      await about.getByRole('button', { name: 'Check now' }).waitFor();
      await closeApp(page);
    } finally {
      await harness.close();
    }
  });

  it('Flatpak: it does not update itself, and says how to update', async () => {
    const harness = await startHarness({
      updates: {
        source: sourceFor('linux', '/app/trayshare/trayshare', [], {
          FLATPAK_ID: 'app.trayshare.Trayshare',
        }),
        createUpdater: () => {
          throw new Error('a Flatpak never makes an updater');
        },
      },
    });
    try {
      const { page, problems, about } = await aboutOf(harness);
      await expect
        .poll(() => about.locator('#update-status').textContent())
        .toBe('Installed with Flatpak: update it with flatpak update, or in your software centre.');
      expect(await about.getByRole('button', { name: 'Check now' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await closeApp(page);
    } finally {
      await harness.close();
    }
  });
});
