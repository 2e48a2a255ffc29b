// A share some channels refused leads somewhere, in real Chromium against the real core and the
// reference service: "Send to the others" posts once to the channels that took it, and "Change
// destination…" reopens the sheet with the same files and the refused channel gone, from the
// queue and from History. Focus stays on a control that is there.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-refused-test-'));
}, 60_000);

afterEach(async () => {
  await harness.settled();
  await harness.app.clearFinished();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A share to #general and C0SECRET (private, without the app): the service refuses it. */
async function refusedShare(names: string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    await writeFile(path, `bytes of ${name}`);
    paths.push(path);
  }
  await harness.app.share({
    target: { workspaceId: harness.demo.workspaceId, channels: ['C0GENERAL', 'C0SECRET'] },
    paths,
  });
  await harness.settled();
  return paths;
}

const postsOf = (name: string) =>
  harness.reference
    .uploads()
    .filter((u) => u.name === name)
    .map((u) => u.channels);

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('aria-label') ?? el?.id ?? el?.textContent ?? '';
  });

describe.each(SMALL_ONLY)('a refused share at %i×%i', (width, height) => {
  it('"Send to the others" in the queue posts once to #general, and focus stays in the row', async () => {
    const name = `others-${width}.txt`;
    await refusedShare([name]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const row = page.getByRole('listitem').filter({ hasText: name });
    expect(await row.locator('.item__detail').textContent()).toContain(
      'C0SECRET refused it (invite the app first). Send to the others (#general)',
    );
    const send = row.getByRole('button', { name: `Send to the others (#general): ${name}` });
    expect(await send.textContent()).toBe('Send to the others');
    expect(
      await row.getByRole('button', { name: `Change destination… for ${name}` }).isVisible(),
    ).toBe(true);
    expect(await axeAtSizes(page)).toEqual([]);

    await send.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Delivered');
    expect(postsOf(name)).toEqual([['C0GENERAL']]);
    // The button went with the failure: focus is on what the row offers now, not on nothing.
    await expect.poll(() => focused(page)).toBe(`Copy link to ${name}`);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('"Change destination…" reopens the sheet with both files and #general, and sends once', async () => {
    const names = [`a-${width}.txt`, `b-${width}.txt`];
    await refusedShare(names);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const share = page.getByRole('listitem', { name: /^2 files → #general, C0SECRET/ });
    await share.getByRole('button', { name: 'Change destination… for 2 files' }).click();

    await page.getByRole('heading', { level: 1, name: 'Change destination' }).waitFor();
    expect(await page.getByText('C0SECRET refused 2 files.').isVisible()).toBe(true);
    expect(
      await page
        .getByRole('list', { name: 'Files to send' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(names);
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    expect(await chips.allTextContents()).toEqual(['#general×']);
    // Focus is where the change is made.
    await expect.poll(() => focused(page)).toBe('redirect-channels');
    expect(await axeAtSizes(page)).toEqual([]);

    // Esc closes the open list first, as in any combobox; then it leaves as Cancel does: back
    // to the queue, nothing sent.
    await page.keyboard.press('Escape');
    expect(
      await page.getByRole('combobox', { name: 'Channels' }).getAttribute('aria-expanded'),
    ).toBe('false');
    expect(
      await page.getByRole('heading', { level: 1, name: 'Change destination' }).isVisible(),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    expect(postsOf(names[0]!)).toEqual([]);

    await share.getByRole('button', { name: 'Change destination… for 2 files' }).click();
    await page.getByRole('heading', { level: 1, name: 'Change destination' }).waitFor();
    // As a person does: type where focus is once it is there, Enter once #random is offered.
    await expect.poll(() => focused(page)).toBe('redirect-channels');
    await page.keyboard.type('random');
    await page
      .getByRole('listbox', { name: 'Channels' })
      .getByRole('option', { name: /random/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => chips.allTextContents()).toEqual(['#general×', '#random×']);
    // On from the picker (its list closes), then Send.
    await page.keyboard.press('Tab');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    const moved = page.getByRole('listitem', { name: /^2 files → #general, #random/ });
    await expect.poll(() => moved.locator('.badge').first().textContent()).toBe('2 of 2 delivered');
    for (const n of names) expect(postsOf(n)).toEqual([['C0GENERAL', 'C0RANDOM']]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('History offers the same: "Send to the others" once the queue was cleared', async () => {
    const name = `history-${width}.txt`;
    await refusedShare([name]);
    // Cleared once its failure is written to History (a finished item waits for that).
    await expect.poll(async () => (await harness.app.listHistory({ search: name })).length).toBe(1);
    await expect
      .poll(async () => {
        await harness.app.clearFinished();
        return (await harness.app.listQueue()).length;
      })
      .toBe(0);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'history');
    const row = page.getByRole('listitem').filter({ hasText: name }).first();
    // History loads after the view shows: wait for the row's actions, as a person would.
    await row.getByRole('button', { name: `Change destination… for ${name}` }).waitFor();
    await row.getByRole('button', { name: `Send to the others (#general): ${name}` }).click();
    await expect.poll(() => postsOf(name)).toEqual([['C0GENERAL']]);
    await harness.settled();
    // Sent as a new share: History now holds the delivered one too, and nothing twice.
    await expect
      .poll(() =>
        page.getByRole('listitem').filter({ hasText: name }).locator('.badge').allTextContents(),
      )
      .toEqual(['Delivered', 'Failed']);
    expect(postsOf(name)).toEqual([['C0GENERAL']]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
