// First run and the token, in real Chromium against the real core and the reference service:
// files dropped into an empty app lead to adding a workspace (protocol asked of the service,
// token checked) and then to the share sheet with the files still there; a wrong token is not
// shown as saved; replacing a token asks first; a token the service refused since shows so.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, dropFiles, openApp, showView } from './browser';
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

const SIZES = [
  [360, 520],
  [480, 640],
] as const;

async function emptyApp(): Promise<void> {
  harness.reference.clearFaults();
  for (const w of (await harness.app.getSnapshot()).workspaces) {
    await harness.app.removeWorkspace(w.id);
  }
}

describe('first run', () => {
  for (const [width, height] of SIZES) {
    it(`a file dropped before any workspace waits while one is added, then is shared (${width}×${height})`, async () => {
      await emptyApp();
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await dropFiles(page, [{ name: 'first.txt', content: 'my first share' }]);
      await page.getByRole('heading', { name: 'Set up a workspace first' }).waitFor();
      expect(await page.getByText('1 file will wait here').isVisible()).toBe(true);
      const steps = page.getByRole('region', { name: 'Getting started' }).getByRole('listitem');
      expect(await steps.allTextContents()).toEqual([
        expect.stringContaining('Add a workspace'),
        expect.stringContaining('Check its token'),
        expect.stringContaining('Make a preset'),
      ]);
      expect(await axeViolations(page)).toEqual([]);
      // Sign in with Slack comes first; a token is the second choice.
      await page
        .getByRole('form', { name: 'Sign in with Slack' })
        .getByRole('button', { name: 'Use a token' })
        .click();
      const form = page.getByRole('form', { name: 'New workspace' });
      expect(await form.getByText('Where a token comes from').isVisible()).toBe(true);
      expect(await form.getByLabel('Protocol').inputValue()).toBe('auto');
      await form.getByLabel('Name').fill('Acme');
      await form.getByLabel('Base URL').fill(harness.reference.url);
      await form.getByLabel(/^Token/).fill(DEMO_TOKEN);
      // A real service takes a moment to check a token: the sheet shows before it is saved.
      harness.reference.injectFault({
        method: 'auth.test',
        fault: { kind: 'slow', delayMs: 700 },
      });
      const add = form.getByRole('button', { name: 'Add workspace' });
      const box = await add.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await add.click();

      // No dead end: the share sheet opens with the dropped file still in it.
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
      expect(await page.locator('.file-list__name').textContent()).toBe('first.txt');
      // Focus is in the sheet, on the comment, not on nothing.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('share-comment');

      // The picker lists the new workspace's channels at once: the token is saved by now.
      const picker = page.getByRole('combobox', { name: 'Channels' });
      await picker.focus();
      await page.keyboard.type('gen');
      await expect
        .poll(() =>
          page.getByRole('listbox', { name: 'Channels' }).getByRole('option').first().textContent(),
        )
        .toBe('#general, public channel');
      expect(await page.locator('#share-channels-help').textContent()).toBe(
        'Type a name to search, or paste channel IDs.',
      );
      await page.keyboard.press('Enter');
      const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
      await expect.poll(() => chips.allTextContents()).toEqual(['#general×']);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('share-channels');
      const [ws] = (await harness.app.getSnapshot()).workspaces;
      // The reference service offers Slack's current protocol: the app asked, and took it.
      expect(ws).toMatchObject({ name: 'Acme', protocol: 'external', hasToken: true });
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  for (const [width, height] of SIZES) {
    it(`a wrong token adds nothing and is said at the token, where focus is; the right one then connects (${width}×${height})`, async () => {
      await emptyApp();
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await showView(page, 'settings');
      // Sign in with Slack comes first; a token is the second choice.
      await page
        .getByRole('form', { name: 'Sign in with Slack' })
        .getByRole('button', { name: 'Use a token' })
        .click();
      const form = page.getByRole('form', { name: 'New workspace' });
      await form.getByLabel('Name').fill('Acme');
      await form.getByLabel('Base URL').fill(harness.reference.url);
      const token = form.getByLabel(/^Token/);
      await token.fill('xoxb-wrong-token');
      await form.getByRole('button', { name: 'Add workspace' }).click();

      const refusal = form.locator('#new-ws-token-error');
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe(
        "The service refused this token, so the workspace was not added. Paste the whole token again (it starts with xoxb-). Service's answer: invalid_auth.",
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-ws-token');
      expect(await token.getAttribute('aria-describedby')).toBe('new-ws-token-error');
      expect(await refusal.isVisible()).toBe(true);
      const box = await refusal.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(height);
      expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
      const steps = page.getByRole('region', { name: 'Getting started' }).getByRole('listitem');
      expect(await steps.filter({ hasText: '(done)' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Make a preset' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The right token: the workspace is added, focus is on who it is for, no old refusal.
      await token.fill(DEMO_TOKEN);
      expect(await refusal.count()).toBe(0);
      await form.getByRole('button', { name: 'Add workspace' }).click();
      const card = page.getByRole('article', { name: 'Acme' });
      await card.getByText(/^Connected as/).waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
        .toMatch(/Connected as u0test in .+\. Token saved\./);
      expect(await page.getByText(/refused/).count()).toBe(0);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it('Settings leads on to a preset once the workspace exists', async () => {
    await emptyApp();
    const { page } = await openApp(browser, harness);
    await page.setViewportSize({ width: 360, height: 520 });
    await showView(page, 'settings');
    // Sign in with Slack comes first; a token is the second choice.
    await page
      .getByRole('form', { name: 'Sign in with Slack' })
      .getByRole('button', { name: 'Use a token' })
      .click();
    const form = page.getByRole('form', { name: 'New workspace' });
    await form.getByLabel('Name').fill('Acme');
    await form.getByLabel('Base URL').fill(harness.reference.url);
    await form.getByLabel(/^Token/).fill(DEMO_TOKEN);
    await form.getByRole('button', { name: 'Add workspace' }).click();
    const card = page.getByRole('article', { name: 'Acme' });
    // Who the token is for, said once.
    const connected = card.getByText(/Connected/);
    await connected.waitFor();
    expect(await connected.count()).toBe(1);
    expect(await connected.textContent()).toMatch(/^Connected as u0test in .+\. Token saved\.$/);
    await page.getByRole('button', { name: 'Make a preset' }).click();
    await page.getByRole('heading', { level: 1, name: 'Presets' }).waitFor();
    await closeApp(page);
  });
});

describe('the token in Settings', () => {
  for (const [width, height] of SIZES) {
    it(`a wrong token is not saved, a replacement is confirmed, a refused token shows as refused (${width}×${height})`, async () => {
      await emptyApp();
      const ws = await harness.app.addWorkspace({ name: 'Acme', baseUrl: harness.reference.url });
      await harness.app.saveToken(ws.id, DEMO_TOKEN);
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await showView(page, 'settings');
      const card = page.getByRole('article', { name: 'Acme' });
      const state = card.locator('.token-state');
      expect(await state.textContent()).toBe('saved');
      const field = card.getByLabel(/^Token/);

      // Replacing asks first; a token the service refuses is not kept.
      await field.fill('xoxb-wrong-token');
      await card.getByRole('button', { name: 'Replace token' }).click();
      const ask = card.getByRole('group', { name: 'Replace the token?' });
      expect(await axeViolations(page)).toEqual([]);
      await ask.getByRole('button', { name: 'Replace', exact: true }).click();
      const refused = card.getByRole('alert').filter({ hasText: 'refused this token' });
      await refused.waitFor();
      // Plain words first, pointing at the field above rather than at Settings (this is
      // Settings); the service's code after them, in small print.
      expect(await refused.textContent()).toBe(
        "The service refused this token, so it was not saved. The service does not accept this token. Paste a new token above. Service's answer: invalid_auth.",
      );
      expect(await refused.locator('small').textContent()).toBe(" Service's answer: invalid_auth.");
      expect(await state.textContent()).toBe('saved');
      expect(await field.inputValue()).toBe('xoxb-wrong-token');

      // The service refuses the saved token later (revoked): Settings says so.
      harness.reference.injectFault({
        method: 'auth.test',
        fault: { kind: 'error', error: 'token_revoked' },
      });
      await card.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => state.textContent()).toBe('refused by the service');
      expect(await state.evaluate((el) => el.className)).toContain('token-state--refused');

      // A new token, confirmed, clears it and says who it is for once.
      await field.fill(DEMO_TOKEN);
      await field.press('Enter');
      await ask.getByRole('button', { name: 'Replace', exact: true }).click();
      await expect.poll(() => state.textContent()).toBe('saved');
      const connected = card.getByText(/Connected/);
      await connected.waitFor();
      expect(await connected.count()).toBe(1);
      expect(await field.inputValue()).toBe('');
      const box = await ask.or(card).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }
});
