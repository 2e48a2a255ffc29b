// Removing a workspace at a tray's size (issue 36, point 1): the question and its red button stay
// inside the card at 360 px, and Test connection is a button-sized box, not a stretched one.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, launchBrowser, openApp, showView } from './browser';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
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

describe.each([
  [360, 520],
  [480, 640],
])('removing a workspace at %i×%i', (width, height) => {
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
    await page.context().close();
  }, 60_000);
});
