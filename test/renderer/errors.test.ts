// What the person sees when things go wrong: a clear message where they act, and a way on.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-errors-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('when something goes wrong', () => {
  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`a refused token is not saved; one revoked later holds the queue, said once, and a good token sends (${width}×${height})`, async () => {
      await harness.app.setToken(harness.demo.workspaceId, DEMO_TOKEN);
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await showView(page, 'settings');
      const card = page.getByRole('article', { name: 'Acme' });
      const token = card.getByLabel(/^Token/);
      const state = card.locator('.token-state');
      expect(await state.textContent()).toBe('saved');
      await token.fill('xoxb-revoked-long-ago');
      await card.getByRole('button', { name: 'Replace token' }).click();
      await card.getByRole('button', { name: 'Replace', exact: true }).click();
      const result = card.getByRole('alert');
      await result.waitFor();
      const message = (await result.textContent()) ?? '';
      expect(message).toMatch(
        /^The service refused this token, so it was not saved\..* Service's answer: invalid_auth\.$/,
      );
      expect(message).not.toContain('in Settings');
      expect(message).not.toContain('xoxb-revoked-long-ago');
      expect(await state.textContent()).toBe('saved');

      // The service revokes the saved token later: the upload is held, not failed.
      harness.reference.injectFault({ fault: { kind: 'error', error: 'token_revoked' } });
      const path = join(dir, `report-${width}.txt`);
      await writeFile(path, 'quarterly report');
      harness.pick([path]);
      await showView(page, 'drop');
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      const hold = page.getByRole('alert').filter({ hasText: 'Acme needs a new token' });
      await hold.waitFor({ timeout: 15_000 });
      // Each thing said once: what happened, what it means, where to fix it.
      expect(await hold.textContent()).toBe(
        'Acme needs a new token. This token has been revoked. Its uploads wait until one is saved. Open Settings to add a token',
      );
      expect(await page.locator('.badge--needs-token').textContent()).toBe('Needs a token');

      await hold.getByRole('button', { name: 'Open Settings to add a token' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      expect(await state.textContent()).toBe('refused by the service');
      await card.getByLabel(/^Token/).fill(DEMO_TOKEN);
      await card.getByRole('button', { name: 'Replace token' }).click();
      await card.getByRole('button', { name: 'Replace', exact: true }).click();
      await expect
        .poll(
          () => harness.reference.uploads().filter((u) => u.name === `report-${width}.txt`).length,
          { timeout: 15_000 },
        )
        .toBe(1);
      await expect.poll(() => state.textContent()).toBe('saved');
      await showView(page, 'queue');
      await page.locator('.badge--delivered').first().waitFor();
      expect(await page.getByText('needs a new token').count()).toBe(0);
      expect(problems).toEqual([]);
      await closeApp(page);
    });

    it(`an unknown service error shows its code and a next step; the failed row keeps size and destination (${width}×${height})`, async () => {
      harness.reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
      const path = join(dir, `odd-${width}.txt`);
      await writeFile(path, 'twelve bytes');
      harness.pick([path]);
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const row = page.getByRole('listitem', { name: `odd-${width}.txt` });
      await row.locator('.badge--failed').waitFor({ timeout: 15_000 });
      const detail = row.locator('.item__detail');
      expect(await detail.textContent()).toBe(
        '12 bytes → #design-review, #general in Acme. The service answered with the error "quota_wobbled", which Trayshare does not know. Look the code up in the service\'s API documentation or ask its admin; Retry sends the file again.',
      );
      const box = await detail.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it('refuses a webhook URL pasted as a token before anything is saved', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card.getByLabel(/^Token/).fill('https://hooks.example.com/services/T000/B000/XXXX');
    expect(await card.locator('.field__error').first().textContent()).toContain('webhook');
    expect(await card.getByRole('button', { name: 'Replace token' }).isDisabled()).toBe(true);
    await closeApp(page);
  });

  it('a share to a workspace without a token goes to the way out, said once', async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card.getByRole('button', { name: 'Clear the token of Acme' }).click();
    await card.getByRole('button', { name: 'Clear token' }).click();
    await expect.poll(() => card.locator('.token-state').textContent()).toBe('not set');

    const path = join(dir, 'draft.txt');
    await writeFile(path, 'draft');
    harness.pick([path]);
    await showView(page, 'drop');
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByText('Acme has no token saved').waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    // The sheet said it already, beside its way out: Share takes the person there, and no
    // refusal repeats it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Add the token in Settings');
    expect(await page.getByRole('alert').filter({ hasText: 'No token' }).count()).toBe(0);
    await closeApp(page);
  });

  it('shows a rate limit as a countdown, then sends on its own', async () => {
    // The test before cleared the token.
    await harness.app.setToken(harness.demo.workspaceId, DEMO_TOKEN);
    harness.reference.injectFault({ fault: { kind: 'ratelimit', retryAfter: 2 } });
    const path = join(dir, 'later.txt');
    await writeFile(path, 'after the wait');
    harness.pick([path]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const row = page.getByRole('listitem', { name: 'later.txt' });
    await row.locator('.badge--waiting').waitFor();
    expect(await row.locator('.item__detail').textContent()).toMatch(/Trying again in [12] s\.$/);
    await row.locator('.badge--delivered').waitFor({ timeout: 15_000 });
    expect(harness.reference.uploads().filter((u) => u.name === 'later.txt')).toHaveLength(1);
    await closeApp(page);
  });

  it('offers to switch a workspace whose service retired files.upload, and the file then arrives once', async () => {
    harness.reference.injectFault({ fault: { kind: 'error', error: 'method_deprecated' } });
    const path = join(dir, 'retired.txt');
    await writeFile(path, 'sent through the external protocol');
    harness.pick([path]);
    const { page } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const row = page.getByRole('listitem', { name: 'retired.txt' });
    await row.locator('.badge--failed').waitFor();
    expect(await row.locator('.item__detail').textContent()).toMatch(
      /no longer offers files\.upload/,
    );
    await row.getByRole('button', { name: "Switch Acme to Slack's upload protocol" }).click();
    await row.locator('.badge--delivered').waitFor({ timeout: 15_000 });
    expect(harness.reference.uploads().filter((u) => u.name === 'retired.txt')).toHaveLength(1);
    const snapshot = await harness.app.getSnapshot();
    expect(snapshot.workspaces.find((w) => w.id === harness.demo.workspaceId)?.protocol).toBe(
      'external',
    );
    await harness.app.updateWorkspace(harness.demo.workspaceId, { protocol: 'files.upload' });
    await closeApp(page);
  });
});
