// The presets editor: add with channel IDs checked as you type, reorder from the keyboard,
// make default, delete with a confirmation; all of it survives a reload.
import type { Browser, Page } from 'playwright-core';
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

const presetNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Presets, in menu order' })
    .locator('.item__name')
    .allTextContents();

describe('presets editor', () => {
  it('adds, reorders, sets the default and deletes presets, and they survive a reload', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'presets');
    expect(await presetNames(page)).toEqual(['Design review', 'Random']);

    await page.getByRole('button', { name: 'New preset…' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Launch');
    const id = page.getByLabel('Channel 1 ID');
    await id.fill('C0GEN ERAL');
    expect(await id.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field__error').first().textContent()).toContain('contains a space');
    await id.fill('C0GENERAL');
    expect(await id.getAttribute('aria-invalid')).toBe('false');
    await page.getByLabel('Channel 1 name').fill('#general');
    await page.getByRole('button', { name: 'Add channel' }).click();
    expect(
      await page.getByLabel('Channel 2 ID').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.getByLabel('Channel 2 ID').fill('C0RANDOM');
    await page.getByLabel('Default comment').fill('Launch material');
    await page.getByRole('button', { name: 'Add preset' }).click();
    await expect.poll(() => presetNames(page)).toEqual(['Design review', 'Random', 'Launch']);

    // Move "Launch" to the top with the keyboard: focus stays on the moved preset's button.
    await page.getByRole('button', { name: 'Move Launch up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => presetNames(page)).toEqual(['Design review', 'Launch', 'Random']);
    await page.keyboard.press('Enter');
    await expect.poll(() => presetNames(page)).toEqual(['Launch', 'Design review', 'Random']);
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: 'Move Launch down' })
          .evaluate((el) => el === document.activeElement),
      )
      .toBe(true);

    await page.getByRole('button', { name: 'Make default: Launch' }).click();
    await page.getByRole('button', { name: 'Unset default: Launch' }).waitFor();
    expect(
      await page.getByRole('listitem', { name: 'Launch' }).locator('.badge--default').count(),
    ).toBe(1);

    // Delete asks first; "Keep" is focused so a second Enter destroys nothing.
    await page.getByRole('button', { name: 'Delete Random' }).click();
    await expect
      .poll(() =>
        page.getByRole('button', { name: 'Keep' }).evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('Enter');
    expect(await presetNames(page)).toContain('Random');
    await page.getByRole('button', { name: 'Delete Random' }).click();
    await page
      .getByRole('group', { name: 'Delete “Random”?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => presetNames(page)).toEqual(['Launch', 'Design review']);

    await page.reload();
    await showView(page, 'presets');
    expect(await presetNames(page)).toEqual(['Launch', 'Design review']);
    expect(await page.locator('.badge--default').count()).toBe(1);
    // C0RANDOM was typed as an ID: the list shows it by the name the service gives it.
    await expect
      .poll(() =>
        page.getByRole('listitem', { name: 'Launch' }).locator('.item__detail').textContent(),
      )
      .toBe('#general, #random in Acme · with comment');
    const snapshot = await harness.app.getSnapshot();
    expect(snapshot.presets.map((p) => p.name)).toEqual(['Launch', 'Design review']);
    expect(snapshot.presets[0]?.channels).toEqual([
      { id: 'C0GENERAL', label: 'general' },
      { id: 'C0RANDOM' },
    ]);
    expect(snapshot.defaultPresetId).toBe(snapshot.presets[0]?.id);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('after a move, focus follows what the person does next, not back to the moved preset', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'presets');
    const hasFocus = (name: string) =>
      page.getByRole('button', { name }).evaluate((el) => el === document.activeElement);
    const [first, second] = await presetNames(page);
    if (!first || !second) throw new Error('the first test leaves two presets');
    await page.getByRole('button', { name: `Move ${second} up` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => presetNames(page)).toEqual([second, first]);
    await expect.poll(() => hasFocus(`Move ${second} down`)).toBe(true);

    // The default changes on the button pressed; focus stays there when the settings come back.
    const isDefault = await page.getByRole('button', { name: `Unset default: ${first}` }).count();
    const [press, after] = isDefault
      ? [`Unset default: ${first}`, `Make default: ${first}`]
      : [`Make default: ${first}`, `Unset default: ${first}`];
    await page.getByRole('button', { name: press }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: after }).waitFor();
    await expect.poll(() => hasFocus(after)).toBe(true);

    // Back from editing the other preset, focus is on that preset's Edit button.
    await page.getByRole('button', { name: `Edit ${first}` }).click();
    await page.getByLabel('Default comment').fill('Edited after a move');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await page.getByRole('button', { name: `Edit ${first}` }).waitFor();
    await expect.poll(() => hasFocus(`Edit ${first}`)).toBe(true);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
