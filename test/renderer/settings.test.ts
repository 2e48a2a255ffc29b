// Settings: workspaces (add with the base URL checked as you type, remove with confirmation)
// and preferences (a taken shortcut reported in place, switches saved as they change).
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const prefs = async () => (await harness.app.getSnapshot()).preferences;

describe('settings', () => {
  it("shows package.json's version under About, as the core reports it", async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const { version } = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const about = page.getByRole('region', { name: 'About' });
    expect(await about.innerText()).toContain(`Trayshare ${version}`);
    await closeApp(page);
  });

  it('reports a taken shortcut in place and saves one that is free', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const field = page.getByLabel('Global shortcut');
    await field.focus();
    await page.keyboard.press('Control+Alt+KeyT');
    // Shown as the OS writes it; Electron's accelerator is what is saved.
    expect(await field.inputValue()).toBe('Ctrl+Alt+T');
    expect(await field.getAttribute('placeholder')).toBe('Ctrl+Shift+U');
    await page.getByRole('button', { name: 'Save shortcut' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#pref-shortcut-help').textContent()).toMatch(
      /^The shortcut Ctrl\+Alt\+T could not be registered\..*Choose another in Settings\.$/,
    );
    const before = (await prefs()).shortcut;
    expect(before).not.toBe('CommandOrControl+Alt+T');

    await field.focus();
    await page.keyboard.press('Control+Shift+KeyY');
    await page.keyboard.press('Enter');
    await page.getByText('Shortcut Ctrl+Shift+Y is ready.').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('false');
    expect((await prefs()).shortcut).toBe('CommandOrControl+Shift+Y');

    // Typed the way it reads, it is saved as the accelerator.
    await field.fill('ctrl+alt+k');
    await page.getByRole('button', { name: 'Save shortcut' }).click();
    await page.getByText('Shortcut Ctrl+Alt+K is ready.').waitFor();
    expect((await prefs()).shortcut).toBe('CommandOrControl+Alt+K');
    expect(await field.inputValue()).toBe('Ctrl+Alt+K');
    // Nowhere on the page does a person read Electron's accelerator syntax.
    expect(await page.locator('body').innerText()).not.toMatch(/CommandOrControl|CmdOrCtrl/);
    await closeApp(page);
  });

  it('names shortcuts the way macOS does on a Mac', async () => {
    const { page } = await openApp(browser, harness, { platform: 'MacIntel' });
    await showView(page, 'settings');
    const field = page.getByLabel('Global shortcut');
    expect(await field.getAttribute('placeholder')).toBe('⇧⌘U');
    await field.focus();
    await page.keyboard.press('Meta+Shift+KeyJ');
    expect(await field.inputValue()).toBe('⇧⌘J');
    await page.getByRole('button', { name: 'Save shortcut' }).click();
    await page.getByText('Shortcut ⇧⌘J is ready.').waitFor();
    expect((await prefs()).shortcut).toBe('CommandOrControl+Shift+J');
    expect(await page.locator('body').innerText()).not.toMatch(/CommandOrControl|Ctrl/);
    await closeApp(page);
  });

  it('saves switches and choices as they change', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const login = page.getByLabel('Start Trayshare when I log in');
    const wasOn = await login.isChecked();
    await login.setChecked(!wasOn);
    await expect.poll(async () => (await prefs()).launchAtLogin).toBe(!wasOn);
    await page.getByLabel('Uploads at once, per workspace').selectOption('2');
    await expect.poll(async () => (await prefs()).concurrency).toBe(2);
    await page.getByLabel('When files are dropped on the tray icon').selectOption('default-preset');
    await expect.poll(async () => (await prefs()).trayDropAction).toBe('default-preset');
    await page.getByLabel('Keep the drop window open on top of other windows').check();
    await expect.poll(async () => (await prefs()).dropWindowPinned).toBe(true);
    await page.reload();
    await showView(page, 'settings');
    expect(await page.getByLabel('Start Trayshare when I log in').isChecked()).toBe(!wasOn);
    expect(await page.getByLabel('Uploads at once, per workspace').inputValue()).toBe('2');
    await closeApp(page);
  });

  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`turns "Copy the link when an upload is delivered" on and off (${width}×${height})`, async () => {
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await showView(page, 'settings');
      const copy = page.getByLabel('Copy the link when an upload is delivered');
      await copy.scrollIntoViewIfNeeded();
      const box = await copy.locator('..').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(await copy.isChecked()).toBe(false);
      await copy.check();
      await expect.poll(async () => (await prefs()).copyLinkOnDelivery).toBe(true);
      await page.reload();
      await showView(page, 'settings');
      expect(await page.getByLabel('Copy the link when an upload is delivered').isChecked()).toBe(
        true,
      );
      await page.getByLabel('Copy the link when an upload is delivered').uncheck();
      await expect.poll(async () => (await prefs()).copyLinkOnDelivery).toBe(false);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it('adds a workspace after checking its base URL as you type, and removes it after asking', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    await page.getByRole('button', { name: 'Add workspace…' }).click();
    // Sign in with Slack comes first; a token is the second choice.
    await page
      .getByRole('form', { name: 'Sign in with Slack' })
      .getByRole('button', { name: 'Use a token' })
      .click();
    const form = page.getByRole('form', { name: 'New workspace' });
    await form.getByLabel('Name').fill('Globex');
    const url = form.getByLabel('Base URL');
    await url.fill('http://files.globex.example');
    expect(await form.locator('#new-ws-url-error').textContent()).toContain('Refusing plain http');
    await url.fill('https://hooks.globex.example/services/T1/B2/c3');
    expect(await form.locator('#new-ws-url-error').textContent()).toContain('webhook');
    await url.fill('https://files.globex.example');
    expect(await form.locator('#new-ws-url-error').count()).toBe(0);
    await form.getByRole('button', { name: 'Add workspace' }).click();

    const card = page.getByRole('article', { name: 'Globex' });
    await card.waitFor();
    expect(await card.locator('.token-state').textContent()).toBe('not set');
    expect((await harness.app.getSnapshot()).workspaces.map((w) => w.name)).toEqual([
      'Acme',
      'Globex',
    ]);

    await card.getByRole('button', { name: 'Remove workspace Globex' }).click();
    await card.getByRole('button', { name: 'Keep' }).click();
    expect(await card.isVisible()).toBe(true);
    await card.getByRole('button', { name: 'Remove workspace Globex' }).click();
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    expect((await harness.app.getSnapshot()).workspaces.map((w) => w.name)).toEqual(['Acme']);
    await closeApp(page);
  });

  it('tests the connection and says who the token belongs to', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card.getByRole('button', { name: 'Test connection' }).click();
    const result = card.getByRole('status').filter({ hasText: 'Connected' });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/^Connected as /);
    await closeApp(page);
  });
});
