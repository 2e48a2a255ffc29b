// Settings → About in real Chromium, against the real core through the browser harness: "Copy
// diagnostics" puts the core's redacted diagnostics on the clipboard through the bridge and
// says so; "Open logs folder" asks the shell for the log's folder; "Detailed logs" is a
// preference, off by default, saved as it is switched.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
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

describe('Settings → About', () => {
  it('Copy diagnostics puts the redacted diagnostics on the clipboard', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const about = page.getByRole('region', { name: 'About' });
    harness.log.warn(`A line that quotes Authorization: Bearer ${DEMO_TOKEN}`);
    const before = harness.copied.length;
    await about.getByRole('button', { name: 'Copy diagnostics' }).click();
    await about.getByRole('status').getByText('Diagnostics copied').waitFor();
    expect(harness.copied).toHaveLength(before + 1);
    const text = harness.copied.at(-1) ?? '';
    expect(text).toMatch(/^Trayshare diagnostics, /);
    expect(text).toContain('Protocols: files.upload (1 workspace)');
    expect(text).toMatch(/Queue: \d+ queued, /);
    expect(text).toContain('A line that quotes Authorization: [redacted]');
    expect(text).not.toContain(DEMO_TOKEN);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('Open logs folder asks the shell for the folder of the log', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    await page
      .getByRole('region', { name: 'About' })
      .getByRole('button', { name: 'Open logs folder' })
      .click();
    await expect.poll(() => harness.openedFolders).toEqual([harness.log.dir]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('Detailed logs is off by default and saved as it is switched', async () => {
    const prefs = async () => (await harness.app.getSnapshot()).preferences;
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const box = page.getByRole('checkbox', { name: 'Detailed logs' });
    expect(await box.isChecked()).toBe(false);
    expect(await box.getAttribute('aria-describedby')).toBe('pref-detailed-logs-help');
    await box.check();
    await expect.poll(async () => (await prefs()).detailedLogs).toBe(true);
    await box.uncheck();
    await expect.poll(async () => (await prefs()).detailedLogs).toBe(false);
    await closeApp(page);
  });
});
