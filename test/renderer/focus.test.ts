// After each action, focus is on the next sensible control, never on nothing; Esc closes what
// is open everywhere (a question, the preset editor, the share sheet) and throws nothing away.
// Real Chromium against the real core and the reference service.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-focus-test-'));
}, 60_000);

afterEach(async () => {
  for (const item of await harness.app.listQueue())
    if (item.state === 'sending' || item.state === 'queued' || item.state === 'waiting')
      await harness.app.cancelItem(item.id);
  await harness.settled();
  await harness.app.clearFinished();
  harness.setThrottle(null);
  if ((await harness.app.getSnapshot()).paused) await harness.app.setPaused(false);
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function bigFile(name: string): Promise<string> {
  const path = join(dir, name);
  const handle = await open(path, 'w');
  await handle.truncate(32 * 1024 * 1024);
  await handle.close();
  return path;
}

/** The focused control as a person would name it: its accessible label, else its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(nothing)';
    return el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.id;
  });

describe.each(SMALL_ONLY)('at %i×%i', (width, height) => {
  it('the queue: Cancel, Retry, Pause all and Cancel all leave focus on a control', async () => {
    harness.setThrottle(256 * 1024);
    const name = `slow-${width}.bin`;
    await harness.app.share({
      target: { presetId: harness.demo.randomPresetId },
      paths: [await bigFile(name), await bigFile(`second-${width}.bin`)],
    });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const row = page.getByRole('listitem').filter({ hasText: name }).last();
    await row.getByRole('button', { name: `Cancel ${name}` }).focus();
    await page.keyboard.press('Enter');
    // The cancelled upload's Retry takes the place of its Cancel.
    await expect.poll(() => focused(page)).toBe(`Retry ${name}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe(`Cancel ${name}`);

    const pause = page.getByRole('button', { name: 'Pause all' });
    await pause.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Resume all');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Pause all');

    await page.getByRole('button', { name: 'Cancel all' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Cancel all' }).count()).toBe(0);
    // Nothing left to cancel: focus moves on to what the uploads offer now.
    await expect.poll(() => focused(page)).toMatch(/^(Retry|Show|Hide)/);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('presets: the editor takes focus, Esc (keeping a draft) and Save bring it back to the preset; Esc answers Keep', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'presets');
    await page.getByRole('button', { name: 'Edit Random' }).click();
    await page.getByRole('heading', { name: 'Edit “Random”' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('preset-name');

    // Esc leaves the editor: nothing saved, focus back on the preset's Edit, and what was typed
    // kept as a draft (as the share sheet keeps its own), offered again with a way to discard it.
    await page.keyboard.type(' (unsaved)');
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Presets' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Edit Random');
    expect((await harness.app.getSnapshot()).presets.map((p) => p.name)).toContain('Random');
    await page.keyboard.press('Enter');
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe('Random (unsaved)');
    await page.getByText('Your unsaved changes to this preset are back').waitFor();
    expect(await axeAtSizes(page)).toEqual([]);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => name.inputValue()).toBe('Random');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('preset-name');
    // Unchanged, Esc keeps nothing: the editor opens on the preset as it is.
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('Edit Random');
    await page.keyboard.press('Enter');
    expect(await name.inputValue()).toBe('Random');
    expect(await page.getByRole('button', { name: 'Discard changes' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('Edit Random');

    // Saved under a new name: focus is on that preset's Edit.
    await page.keyboard.press('Enter');
    await page.getByLabel('Name', { exact: true }).fill('Random things');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Presets' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Edit Random things');

    // Cancelling a new preset: focus back on New preset….
    await page.getByRole('button', { name: 'New preset…' }).click();
    await page.getByRole('heading', { name: 'New preset' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page)).toBe('New preset…');

    // A delete question: Esc answers Keep, the list stays, focus is on Delete again.
    await page.getByRole('button', { name: 'Delete Random things' }).click();
    const ask = page.getByRole('group', { name: 'Delete “Random things”?' });
    await expect.poll(() => focused(page)).toBe('Keep');
    await page.keyboard.press('Escape');
    expect(await ask.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('Delete Random things');
    expect(await page.getByRole('heading', { level: 1, name: 'Presets' }).isVisible()).toBe(true);
    await harness.app.updatePreset(harness.demo.randomPresetId, { name: 'Random' });
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('the share sheet: Esc keeps the files and the comment as a draft; Cancel throws them away', async () => {
    const path = join(dir, `draft-${width}.txt`);
    await writeFile(path, 'draft');
    harness.pick([path]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.keyboard.type('Half written');
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Drop files' }).waitFor();

    // Back through the navigation: the same file and the same words.
    await page.getByRole('navigation').getByRole('button', { name: 'Share sheet' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await page.locator('.file-list__name').allTextContents()).toEqual([
      `draft-${width}.txt`,
    ]);
    expect(await page.getByLabel('Comment').inputValue()).toBe('Half written');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('share-comment');

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Drop files' }).waitFor();
    expect(
      await page.getByRole('navigation').getByRole('button', { name: 'Share sheet' }).count(),
    ).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('settings: adding a workspace focuses what the service said; removing one, the next control', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    await page.getByRole('button', { name: 'Add workspace…' }).click();
    // Sign in with Slack comes first; a token is the second choice.
    await page
      .getByRole('form', { name: 'Sign in with Slack' })
      .getByRole('button', { name: 'Use a token' })
      .click();
    const form = page.getByRole('form', { name: 'New workspace' });
    await form.getByLabel('Name').fill(`Second ${width}`);
    await form.getByLabel('Base URL').fill(harness.reference.url);
    await form.getByLabel(/^Token/).fill(DEMO_TOKEN);
    await form.getByRole('button', { name: 'Add workspace' }).click();
    const card = page.getByRole('article', { name: `Second ${width}` });
    await card.getByText(/^Connected as/).waitFor();
    // Focus is on the answer, which is read out, not on nothing where the form was.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toMatch(/Connected as u0test in .+\. Token saved\./);
    expect(await axeAtSizes(page)).toEqual([]);

    // Replacing the token asks first, focused on the safe answer; Esc answers it.
    await card.getByLabel(/^Token/).fill(DEMO_TOKEN);
    await card.getByLabel(/^Token/).press('Enter');
    const replace = card.getByRole('group', { name: 'Replace the token?' });
    await expect.poll(() => focused(page)).toBe('Keep the old one');
    await page.keyboard.press('Escape');
    expect(await replace.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id ?? ''))
      .toMatch(/-token$/);

    await card.getByRole('button', { name: `Remove workspace Second ${width}` }).click();
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('Add workspace…');
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('settings by keyboard: Add workspace… and Use a token land in the new form; an empty name is said at the name', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    const activeIn = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        const form = el?.closest('form');
        return `${form?.getAttribute('aria-labelledby') ?? el?.closest('article')?.getAttribute('aria-label') ?? ''}: ${el?.id || el?.textContent?.trim()}`;
      });
    // Enter on the button, as a keyboard user does: the button goes away with the key press.
    await page.getByRole('button', { name: 'Add workspace…' }).focus();
    await page.keyboard.press('Enter');
    const slack = page.getByRole('form', { name: 'Sign in with Slack' });
    await slack.waitFor();
    // In the new form, not in Acme's card (where typing would rename Acme).
    await expect.poll(activeIn).toMatch(/^sign-in-title: /);
    await slack.getByRole('button', { name: 'Use a token' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(activeIn).toBe('new-ws-title: new-ws-name');

    // Add with no name: focus goes to the name, which is invalid and described by the message.
    const form = page.getByRole('form', { name: 'New workspace' });
    await form.getByRole('button', { name: 'Add workspace' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(activeIn).toBe('new-ws-title: new-ws-name');
    const name = form.getByLabel('Name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.evaluate(() => {
        const ids = document.activeElement?.getAttribute('aria-describedby') ?? '';
        return ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' ');
      }),
    ).toBe('Give the workspace a name.');
    expect(await axeAtSizes(page)).toEqual([]);
    expect((await harness.app.getSnapshot()).workspaces.map((w) => w.name)).toContain('Acme');
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
