// The channel picker in real Chromium against the real core and the reference service, driven
// by the keyboard: search by name, kinds, non-members refused, pasted IDs, adding to presets.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { defaultTestConfig } from '../reference-service/server';
import { axeViolations, closeApp, openApp, screenshot, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-picker-test-'));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('channel picker', () => {
  it('finds channels by name from the keyboard, refuses non-members, and shares to the picks', async () => {
    const path = join(dir, 'picked.txt');
    await writeFile(path, 'picked by name');
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

    await page.keyboard.type('des');
    const options = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
    await expect
      .poll(() => options.allTextContents())
      .toEqual([
        '#design-review, public channel',
        '#design, public channel',
        '#design-ops, public channelnot a member: invite the app first',
      ]);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe('share-channels-option-0');
    await screenshot(page, 'channel-picker', 'light');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('share-channels-option-1');
    await page.keyboard.press('Enter');
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    await expect.poll(() => chips.allTextContents()).toEqual(['#design×']);

    // A channel the app is not in is shown with the reason and cannot be added.
    await page.keyboard.type('design-o');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toBe('The app is not in #design-ops: invite the app first.');
    expect(await chips.count()).toBe(1);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    // DMs show their kind, and their person by name with the person icon (users.list).
    await page.keyboard.type('ali');
    await expect.poll(() => options.allTextContents()).toEqual(['alice, direct message']);
    expect(await options.first().locator('svg.person-icon').count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    // Pasting a list of IDs adds each; Backspace in the empty box removes the last chip.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'C0GENERAL C0RANDOM');
      document
        .getElementById('share-channels')
        ?.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
    });
    await expect.poll(() => chips.allTextContents()).toEqual(['#design×', '#general×', '#random×']);
    await page.keyboard.press('Backspace');
    await expect.poll(() => chips.allTextContents()).toEqual(['#design×', '#general×']);
    expect(await page.locator('.messages-line').textContent()).toBe('One message');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await expect
      .poll(() => harness.reference.uploads().find((u) => u.name === 'picked.txt')?.channels, {
        timeout: 15_000,
      })
      .toEqual(['C0DESIGNX', 'C0GENERAL']);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  for (const [width, height] of [
    [360, 520],
    [480, 640],
  ] as const) {
    it(`an exact name wins over a longer one that starts the same (${width}×${height})`, async () => {
      const path = join(dir, `exact-${width}.txt`);
      await writeFile(path, 'exact');
      harness.pick([path]);
      const { page, problems } = await openApp(browser, harness);
      await page.setViewportSize({ width, height });
      await page.getByRole('button', { name: 'Choose files…' }).click();
      await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
      await page.getByRole('radio', { name: 'Channels' }).check();
      const box = page.getByRole('combobox', { name: 'Channels' });
      await box.focus();
      const options = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
      const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');

      // With the #, as people write it: #design first, then the names that start with it.
      await page.keyboard.type('#design');
      await expect
        .poll(() => options.allTextContents())
        .toEqual([
          '#design, public channel',
          '#design-review, public channel',
          '#design-ops, public channelnot a member: invite the app first',
        ]);
      await page.keyboard.press('Enter');
      await expect.poll(() => chips.allTextContents()).toEqual(['#design×']);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('share-channels');

      // Without the #, and in capitals: still the exact name.
      await page.keyboard.type('RANDOM');
      await expect.poll(() => options.first().textContent()).toBe('#random, public channel');
      await page.keyboard.press('Enter');
      await expect.poll(() => chips.allTextContents()).toEqual(['#design×', '#random×']);
      expect(problems).toEqual([]);
      await closeApp(page);
    });
  }

  it("adds to a preset's channels in the preset editor rather than replacing them", async () => {
    const { page } = await openApp(browser, harness);
    await showView(page, 'presets');
    await page.getByRole('button', { name: /Edit Random/ }).click();
    const box = page.getByRole('combobox', { name: 'Add a channel' });
    await box.focus();
    await page.keyboard.type('gen');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page
          .locator('.channel-row input.input--mono')
          .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
      )
      .toEqual(['C0RANDOM', 'C0GENERAL']);
    await closeApp(page);
  });
});

describe('channel picker with a token that may not list every kind', () => {
  let narrow: Harness;

  beforeAll(async () => {
    narrow = await startHarness({
      serviceConfig: {
        channels: [
          ...defaultTestConfig.channels,
          // Slack leaves is_member out of some entries: the token is in this one all the same.
          { id: 'C0QUIET', name: 'quiet', omitIsMember: true },
        ],
        tokens: {
          // The demo's token, granted the channel scopes but neither im:read nor mpim:read
          // (users:read too, so only the conversation kinds are missing here; people without
          // users:read are tested in people.test.ts).
          'xoxb-test-token': {
            user: 'U0TEST',
            channels: ['C0GENERAL', 'C0DESIGN', 'C0QUIET', 'D0ALICE'],
            scopes: ['files:write', 'channels:read', 'groups:read', 'users:read'],
          },
        },
      },
    });
  });

  afterAll(async () => {
    await narrow?.close();
  });

  it('lists the channels, says once which names are missing and why, and adds an entry without is_member', async () => {
    const path = join(dir, 'narrow.txt');
    await writeFile(path, 'shared with a narrow token');
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
        'Some names are not listed (group DMs need mpim:read, DMs need im:read): add the scope to the app, or use their IDs.',
      );

    // The channels the scopes allow are there; the DM the token cannot list is not.
    const options = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
    await page.keyboard.type('U0AL');
    await expect.poll(() => options.count()).toBe(0);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');

    // Listed without is_member: not marked as refused, and it can be added.
    await page.keyboard.type('qui');
    await expect.poll(() => options.allTextContents()).toEqual(['#quiet, public channel']);
    await page.keyboard.press('Enter');
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    await expect.poll(() => chips.allTextContents()).toEqual(['#quiet×']);
    await page.keyboard.type('gen');
    await page.keyboard.press('Enter');
    await expect.poll(() => chips.allTextContents()).toEqual(['#quiet×', '#general×']);

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await expect
      .poll(() => narrow.reference.uploads().find((u) => u.name === 'narrow.txt')?.channels, {
        timeout: 15_000,
      })
      .toEqual(['C0QUIET', 'C0GENERAL']);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
