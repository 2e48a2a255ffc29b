// The drop-window setting promises only what the desktop allows: "on top of other windows"
// everywhere but Wayland, where no app may keep a window on top.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let wayland: Harness;
let x11: Harness;
let browser: Browser;

beforeAll(async () => {
  [wayland, x11, browser] = await Promise.all([
    startHarness({ keepsDropWindowOnTop: false }),
    startHarness(),
    testBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([wayland?.close(), x11?.close()]);
});

describe('the drop window setting', () => {
  it('on Wayland, says the window cannot stay on top and where else files can be dropped', async () => {
    const { page, problems } = await openApp(browser, wayland);
    await showView(page, 'settings');
    const box = page.getByRole('checkbox', { name: 'Keep the drop window open' });
    await box.waitFor();
    await expect.poll(() => box.getAttribute('aria-describedby')).toBe('pref-drop-window-help');
    expect(await page.locator('#pref-drop-window-help').textContent()).toBe(
      'Wayland does not let apps keep a window on top, so other windows can cover the drop window. The Trayshare window takes drops too.',
    );
    expect(await page.getByText('on top of other windows').count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('elsewhere, keeps the drop window on top, as it says', async () => {
    const { page, problems } = await openApp(browser, x11);
    await showView(page, 'settings');
    await page
      .getByRole('checkbox', { name: 'Keep the drop window open on top of other windows' })
      .waitFor();
    expect(await page.locator('#pref-drop-window-help').count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
