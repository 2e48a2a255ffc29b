// History: search, copy link, open in browser (https only), and retry a failed upload (its one
// row is updated, none added).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-history-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('history', () => {
  it('finds uploads, copies links, refuses non-https links in place, and retries a failure in its one row', async () => {
    const { app, demo, reference } = harness;
    const plan = join(dir, 'plan.txt');
    const budget = join(dir, 'budget.txt');
    await writeFile(plan, 'the plan');
    await writeFile(budget, 'the budget');
    await app.share({ target: { presetId: demo.designPresetId }, paths: [plan] });
    await harness.settled();
    // A failure a retry can mend (an answer the app does not know): a refused channel would
    // only be refused again, and offers no Retry.
    reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
    await app.share({
      target: { workspaceId: demo.workspaceId, channels: ['C0RANDOM'] },
      comment: 'numbers',
      paths: [budget],
    });
    await harness.settled();

    const { page } = await openApp(browser, harness);
    await showView(page, 'history');
    const rows = page.getByRole('list', { name: 'Finished uploads' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(2);

    // Destinations read as names from the workspace's channel list, and are searched by name.
    await page.getByLabel('Search history').fill('#general');
    await expect.poll(() => rows.count()).toBe(1);
    await expect
      .poll(() => rows.locator('.item__detail').textContent())
      .toMatch(/→ #design-review, #general in Acme$/);
    await page.getByLabel('Search history').fill('plan');
    await expect.poll(() => rows.count()).toBe(1);
    const [delivered] = reference.uploads();
    await page.getByRole('button', { name: 'Copy link to plan.txt' }).click();
    await page.getByText('Link copied.').waitFor();
    expect(harness.copied).toEqual([expect.stringContaining(delivered!.id)]);
    // The reference service's links are http://127.0.0.1: the shell opens https links only.
    await page.getByRole('button', { name: 'Open in browser: plan.txt' }).click();
    await page.getByRole('alert').filter({ hasText: 'Only https links can be opened.' }).waitFor();
    expect(harness.opened).toEqual([]);

    await page.getByLabel('Search history').fill('budget');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.locator('.item__error').textContent()).toMatch(/quota_wobbled/);
    await page.getByRole('button', { name: 'Retry budget.txt' }).click();
    await page.getByText('Queued again.').waitFor();
    await expect
      .poll(() => reference.uploads().map((u) => [u.name, u.channels, u.initial_comment]), {
        timeout: 15_000,
      })
      .toEqual([
        ['plan.txt', ['C0DESIGN', 'C0GENERAL'], null],
        ['budget.txt', ['C0RANDOM'], 'numbers'],
      ]);
    // Retried as the same queue item: its one row now says delivered; no row is added.
    await expect
      .poll(() => rows.locator('.badge').textContent(), { timeout: 15_000 })
      .toBe('Delivered');
    await page.getByLabel('Search history').fill('');
    await expect.poll(() => rows.count()).toBe(2);
    await closeApp(page);
  });

  it('shows a share of several files as one row with one outcome, its files inside', async () => {
    const { app, demo } = harness;
    const paths = [];
    for (const name of ['one.txt', 'two.txt', 'three.txt']) {
      const path = join(dir, name);
      await writeFile(path, `contents of ${name}`);
      paths.push(path);
    }
    await app.share({
      target: { workspaceId: demo.workspaceId, channels: ['C0DESIGN'] },
      comment: 'three at once',
      paths,
    });
    await harness.settled();

    const { page } = await openApp(browser, harness);
    await showView(page, 'history');
    const list = page.getByRole('list', { name: 'Finished uploads' });
    const share = list.getByRole('listitem', { name: /^3 files → #design-review in Acme$/ });
    await share.waitFor();
    expect(await share.locator('.badge').first().textContent()).toBe('Delivered');
    expect(await share.locator('.item__comment').first().textContent()).toBe('“three at once”');
    const files = share.getByRole('list', { name: /^Files of 3 files/ }).getByRole('listitem');
    expect(await files.locator('.item__name').allTextContents()).toEqual(
      expect.arrayContaining(['one.txt', 'two.txt', 'three.txt']),
    );
    expect(await files.count()).toBe(3);
    await closeApp(page);
  });
});
