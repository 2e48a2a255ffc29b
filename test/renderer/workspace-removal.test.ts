// Removing a workspace at a tray's size (issue 36, points 1 and 2): the question and its red
// button stay inside the card at 360 px, and Test connection is a button-sized box, not a
// stretched one. Once it is gone, its shares keep the names they were made with (Queue, History,
// Recent uploads) and offer nothing that can only fail: no Retry, no "Send to the others".
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SIZES, SMALL_ONLY } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-removal-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What inside `card` reaches past its right or left edge, or its text box past its own box. */
function spill(card: Locator): Promise<string[]> {
  return card.evaluate((box) => {
    const edge = box.getBoundingClientRect();
    const out: string[] = [];
    for (const el of box.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      const label = `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
      if (r.right > edge.right + 0.5 || r.left < edge.left - 0.5)
        out.push(`${label} spans ${Math.round(r.left)}–${Math.round(r.right)}`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        out.push(`${label} is cut off`);
    }
    return out;
  });
}

describe.each(SIZES)('removing a workspace at %i×%i', (width, height) => {
  it('asks inside the card, and Test connection keeps a button’s size', async () => {
    const temp = await harness.app.addWorkspace({
      name: `Temp ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(temp.id, DEMO_TOKEN);
    // A file that is still waiting, so the question is the long one with the red
    // "Cancel them and remove".
    harness.setThrottle(16 * 1024);
    const path = join(dir, `slow-${width}.bin`);
    const handle = await open(path, 'w');
    await handle.truncate(4 * 1024 * 1024);
    await handle.close();
    await harness.app.share({
      target: { workspaceId: temp.id, channels: ['C0GENERAL'] },
      paths: [path],
    });

    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: `Temp ${width}` });
    const test = card.getByRole('button', { name: 'Test connection' });
    const before = await test.boundingBox();
    // One line of text high, and no wider than its words need.
    expect(before?.height).toBeLessThanOrEqual(34);
    expect(before?.width).toBeLessThan(160);

    await card.getByRole('button', { name: `Remove workspace Temp ${width}` }).click();
    const ask = card.getByRole('group', {
      name: /^Remove Temp \d+ and its token\? 1 file is waiting/,
    });
    await ask.waitFor();
    expect(await spill(card)).toEqual([]);
    const confirm = ask.getByRole('button', { name: 'Cancel them and remove' });
    expect(await confirm.isVisible()).toBe(true);
    const after = await test.boundingBox();
    expect(after?.height).toBeLessThanOrEqual(34);
    expect(after?.width).toBeLessThan(160);
    expect(await axeViolations(page)).toEqual([]);

    await ask.getByRole('button', { name: 'Keep the workspace' }).click();
    for (const item of await harness.app.listQueue()) await harness.app.cancelItem(item.id);
    harness.setThrottle(null);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});

describe.each(SMALL_ONLY)('after a workspace is removed, at %i×%i', (width, height) => {
  it('its shares keep their names and offer nothing that can only fail', async () => {
    const gone = await harness.app.addWorkspace({
      name: `Gone ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(gone.id, DEMO_TOKEN);
    // The names are known when the shares are made, as after a person used the picker.
    await harness.app.listConversations(gone.id, { wait: true });
    const file = async (name: string) => {
      const path = join(dir, name);
      await writeFile(path, `bytes of ${name}`);
      return path;
    };
    // Refused by C0SECRET (private, without the app); delivered to Bob; cancelled.
    await harness.app.share({
      target: { workspaceId: gone.id, channels: ['C0GENERAL', 'C0SECRET'] },
      paths: [await file(`refused-${width}-a.txt`), await file(`refused-${width}-b.txt`)],
    });
    await harness.app.share({
      target: { workspaceId: gone.id, channels: ['U0BOB'] },
      paths: [await file(`bob-${width}.txt`)],
    });
    harness.setThrottle(16 * 1024);
    const slow = join(dir, `cancelled-${width}.bin`);
    const handle = await open(slow, 'w');
    await handle.truncate(4 * 1024 * 1024);
    await handle.close();
    const cancelled = await harness.app.share({
      target: { workspaceId: gone.id, channels: ['C0RANDOM'] },
      paths: [slow],
    });
    await harness.app.cancelItem(cancelled.items[0]!.id);
    harness.setThrottle(null);
    await harness.settled();
    await harness.app.removeWorkspace(gone.id);

    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const share = page.getByRole('listitem', {
      name: `2 files → #general, C0SECRET in Gone ${width} (removed)`,
    });
    await share.waitFor();
    expect(
      await share.getByRole('button', { name: /Send to the others|Change destination/ }).count(),
    ).toBe(0);
    expect(await share.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(await share.locator('.item__detail').first().textContent()).toContain(
      'Its workspace was removed, so it cannot be sent again.',
    );
    const bob = page.getByRole('listitem', { name: `bob-${width}.txt` });
    expect(await bob.locator('.item__detail').textContent()).toContain(
      `→ @Bobby in Gone ${width} (removed)`,
    );
    const off = page.getByRole('listitem', { name: `cancelled-${width}.bin` });
    expect(await off.locator('.item__detail').textContent()).toContain(
      `→ #random in Gone ${width} (removed)`,
    );
    expect(await off.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Retry all failed/ }).count()).toBe(0);
    expect(await axeAtSizes(page)).toEqual([]);

    await showView(page, 'history');
    const history = page.getByRole('listitem', {
      name: `2 files → #general, C0SECRET in Gone ${width} (removed)`,
    });
    await history.waitFor();
    expect(
      await history
        .getByRole('button', { name: /Send to the others|Change destination|^Retry/ })
        .count(),
    ).toBe(0);
    const cancelledRow = page.getByRole('listitem').filter({ hasText: `cancelled-${width}.bin` });
    expect(await cancelledRow.locator('.item__detail').textContent()).toContain('→ #random in');
    expect(await cancelledRow.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    const bobRow = page.getByRole('listitem').filter({ hasText: `bob-${width}.txt` });
    expect(await bobRow.locator('.item__detail').textContent()).toContain('→ @Bobby in');
    expect(await axeAtSizes(page)).toEqual([]);

    await showView(page, 'drop');
    const recent = page.locator('.recent__list');
    expect(await recent.textContent()).toContain('@Bobby');
    expect(await recent.textContent()).not.toMatch(/C0GENERAL|C0RANDOM|U0BOB/);
    expect(problems).toEqual([]);
    await harness.app.clearFinished();
    await closeApp(page);
  }, 60_000);
});
