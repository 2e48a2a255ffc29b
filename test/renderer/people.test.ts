// People as destinations in real Chromium against the real core and the reference service: the
// picker offers people (with or without a DM) by name with the person icon, the summary, the
// presets list and History show them as @name with that icon, never as a user or DM ID, and the
// share goes to their DMs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { defaultTestConfig } from '../reference-service/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-people-ui-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('people in the share sheet, presets and History', () => {
  it('picks Bob (no DM yet) and Alice by name, shows them as @name with the person icon, and shares to their DMs', async () => {
    const path = join(dir, 'for-people.txt');
    await writeFile(path, 'for Bob and Alice');
    harness.pick([path]);
    const { page, problems } = await openApp(browser, harness);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    const box = page.getByRole('combobox', { name: 'Channels' });
    await box.focus();
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toBe('Type a name to search, or paste channel IDs.');

    // Bob has no DM: he is offered as a person, found by his handle.
    await page.keyboard.type('bob');
    const options = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['Bobby, direct message']);
    expect(await options.first().locator('svg.person-icon').count()).toBe(1);
    await page.keyboard.press('Enter');

    // Alice's DM is offered as Alice, not as her user ID.
    await page.keyboard.type('ali');
    await expect.poll(() => options.allTextContents()).toEqual(['alice, direct message']);
    await page.keyboard.press('Enter');
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    await expect.poll(() => chips.allTextContents()).toEqual(['@Bobby×', '@alice×']);
    expect(await chips.locator('svg.person-icon').count()).toBe(2);

    const summary = page.locator('.summary');
    await expect
      .poll(() => summary.textContent())
      .toBe('1 file → @Bobby, @alice in Acme, no comment');
    expect(await summary.locator('svg.person-icon').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await expect
      .poll(() => harness.reference.messages().find((m) => m.files.length === 1)?.channels ?? [], {
        timeout: 15_000,
      })
      .toEqual([expect.stringMatching(/^D/), 'D0ALICE']);
    await harness.settled();

    const queued = page
      .getByRole('listitem')
      .filter({ hasText: 'for-people.txt' })
      .locator('.item__detail');
    await expect.poll(() => queued.textContent()).toMatch(/→ @Bobby, @alice in Acme\.$/);
    expect(await queued.locator('svg.person-icon').count()).toBe(2);

    await showView(page, 'drop');
    const recent = page.locator('.recent__item').filter({ hasText: 'for-people.txt' });
    await expect
      .poll(() => recent.locator('.recent__detail').textContent())
      .toMatch(/→ @Bobby, @alice$/);
    expect(await recent.locator('svg.person-icon').count()).toBe(2);

    await showView(page, 'history');
    const row = page.getByRole('listitem').filter({ hasText: 'for-people.txt' });
    const detail = row.locator('.item__detail');
    await expect.poll(() => detail.textContent()).toMatch(/→ @Bobby, @alice in Acme$/);
    expect(await detail.locator('svg.person-icon').count()).toBe(2);
    expect(await row.textContent()).not.toMatch(/U0BOB|U0ALICE|D0ALICE/);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('lists a preset to a DM saved with its user ID as @alice', async () => {
    // How the picker saved a DM before people were known: labelled with the user ID.
    await harness.app.addPreset({
      name: 'To Alice',
      workspaceId: harness.demo.workspaceId,
      channels: [{ id: 'D0ALICE', label: 'U0ALICE' }, { id: 'U0BOB' }],
      comment: '',
    });
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'presets');
    const detail = page
      .getByRole('listitem')
      .filter({ hasText: 'To Alice' })
      .locator('.item__detail');
    await expect.poll(() => detail.textContent()).toBe('@alice, @Bobby in Acme');
    expect(await detail.locator('svg.person-icon').count()).toBe(2);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});

describe('people with a token without users:read', () => {
  let narrow: Harness;

  beforeAll(async () => {
    narrow = await startHarness({
      serviceConfig: {
        tokens: {
          'xoxb-test-token': {
            ...defaultTestConfig.tokens['xoxb-test-token']!,
            scopes: ['files:write', 'channels:read', 'groups:read', 'im:read', 'mpim:read'],
          },
        },
      },
    });
  });

  afterAll(async () => {
    await narrow?.close();
  });

  it('says names of people need users:read, and still takes and shares to a user ID', async () => {
    const path = join(dir, 'by-id.txt');
    await writeFile(path, 'to Bob by his ID');
    narrow.pick([path]);
    const { page, problems } = await openApp(browser, narrow);
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    const box = page.getByRole('combobox', { name: 'Channels' });
    await box.focus();
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toBe(
        'Type a name to search, or paste channel IDs. Names of people need the users:read scope: add it to the app, or use their user IDs (such as U0123ABCD). User IDs still work.',
      );
    // The DM is still offered, as its person's ID, with the person icon.
    await page.keyboard.type('U0AL');
    const options = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['U0ALICE, direct message']);
    expect(await options.first().locator('svg.person-icon').count()).toBe(1);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    // A name of a person cannot be looked up; the message says why.
    await page.keyboard.type('@bob');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toMatch(/^Not added: @bob: Names of people need the users:read scope/);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    await page.keyboard.type('U0BOB');
    await page.keyboard.press('Enter');
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    await expect.poll(() => chips.allTextContents()).toEqual(['U0BOB×']);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await expect
      .poll(() => narrow.reference.messages().at(-1)?.channels ?? [], { timeout: 15_000 })
      .toEqual([expect.stringMatching(/^D/)]);
    expect(narrow.reference.messages().at(-1)?.channels).not.toEqual(['D0ALICE']);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
