// Details of History, Queue, Settings, Presets and Change destination, in real Chromium at a
// tray's sizes: a share's comment once in History, one badge colour for a share in Queue and
// History (grey, not green, when every file was cancelled), "Turn off" drawn as a button beside
// its Save, even gaps around the version in About, a name typed where a channel ID goes is said
// to be a name, an empty channel name says under the field what it shows, Change destination's
// open list leaves its Send button free, crowded rows at 360 px keep names whole and a share's
// count uncut, and each share's Hide files names its share.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, itOnce, SIZES } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-small-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function file(name: string, size?: number): Promise<string> {
  const path = join(dir, name);
  if (size === undefined) await writeFile(path, `bytes of ${name}`);
  else {
    const handle = await open(path, 'w');
    await handle.truncate(size);
    await handle.close();
  }
  return path;
}

const badgeClass = (row: Locator) =>
  row
    .locator(':scope > .item__head .badge')
    .getAttribute('class')
    .then((c) => c?.split(' ').find((k) => k.startsWith('badge--')));

async function opened(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
  const app = await openApp(browser, harness);
  await app.page.setViewportSize({ width, height });
  return app;
}

describe.each(SIZES)('at %i×%i', (width, height) => {
  // `test`: behaviour, run at 360×520 only; `it`: layout, at both sizes (sizes.ts).
  const test = itOnce(width);
  test('History says a share’s comment once, and its badge matches the queue’s', async () => {
    const external = await harness.app.addWorkspace({
      name: `Ext ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'external',
    });
    await harness.app.setToken(external.id, DEMO_TOKEN);
    // The external protocol's one message carries the comment: every file holds it.
    await harness.app.share({
      target: { workspaceId: external.id, channels: ['C0GENERAL'] },
      comment: `notes ${width}`,
      paths: [await file(`c1-${width}.txt`), await file(`c2-${width}.txt`)],
    });
    // A share whose files were all cancelled.
    harness.setThrottle(16 * 1024);
    const off = await harness.app.share({
      target: { workspaceId: harness.demo.workspaceId, channels: ['C0GENERAL'] },
      paths: [await file(`x1-${width}.bin`, 2 << 20), await file(`x2-${width}.bin`, 2 << 20)],
    });
    for (const item of off.items) await harness.app.cancelItem(item.id);
    harness.setThrottle(null);
    await harness.settled();

    const { page, problems } = await opened(width, height);
    await showView(page, 'queue');
    const queued = page.getByRole('listitem', { name: /^2 files → #general in Acme/ });
    expect(await queued.locator(':scope > .item__head .badge').textContent()).toBe(
      '0 of 2 delivered',
    );
    const inQueue = await badgeClass(queued);
    expect(inQueue).not.toBe('badge--delivered');

    await showView(page, 'history');
    const past = page
      .getByRole('listitem', { name: /^2 files → #general in Acme/ })
      .filter({ hasText: `x1-${width}.bin` });
    await past.waitFor();
    expect(await badgeClass(past)).toBe(inQueue);
    const commented = page.getByRole('listitem', {
      name: new RegExp(`^2 files → #general in Ext ${width}`),
    });
    await commented.waitFor();
    expect(await commented.getByText(`“notes ${width}”`).count()).toBe(1);
    // Each share's Hide files names its share, so a list of buttons tells them apart.
    const hides = await page.getByRole('button', { name: /^Hide files/ }).all();
    const names = await Promise.all(
      hides.map((b) => b.evaluate((el) => el.getAttribute('aria-label') ?? el.textContent)),
    );
    expect(names.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Hide files of 2 files → #general in Ext ${width}, starting with c[12]-${width}\\.txt$`,
        ),
      ),
    );
    expect(await axeAtSizes(page)).toEqual([]);
    expect(problems).toEqual([]);
    await harness.app.clearFinished();
    await closeApp(page);
  }, 60_000);

  it('Settings: Turn off is a button, and About’s gaps are even', async () => {
    await harness.app.setPreferences({ shortcut: 'CommandOrControl+Shift+Y' });
    const { page, problems } = await opened(width, height);
    await showView(page, 'settings');
    // The share shortcut's and the capture shortcut's (issue 35): each drawn as a button.
    const turnOffs = await page.getByRole('button', { name: /^Turn off/ }).all();
    expect(turnOffs).toHaveLength(2);
    for (const turnOff of turnOffs) {
      const look = await turnOff.evaluate((el) => {
        const style = getComputedStyle(el);
        return { border: style.borderTopColor, width: style.borderTopWidth };
      });
      expect(look.border).not.toBe('rgba(0, 0, 0, 0)');
      expect(look.width).not.toBe('0px');
      // Never alone on a line of its own: beside its Save, wherever that goes.
      const beside = await turnOff.evaluate((el) => {
        const save = el.parentElement?.querySelector('button[type="submit"]');
        return save
          ? Math.abs(save.getBoundingClientRect().top - el.getBoundingClientRect().top)
          : -1;
      });
      expect(beside).toBeLessThan(1);
    }

    const gaps = await page
      .getByRole('region', { name: 'About' })
      .locator('.card')
      .evaluate((card) => {
        const boxes = [...card.children].map((c) => c.getBoundingClientRect());
        const top =
          card.getBoundingClientRect().top +
          card.clientTop +
          Number.parseFloat(getComputedStyle(card).paddingTop);
        return {
          above: Math.round(boxes[0]!.top - top),
          below: Math.round(boxes[1]!.top - boxes[0]!.bottom),
          gap: Math.round(Number.parseFloat(getComputedStyle(card).rowGap)),
        };
      });
    expect(gaps).toEqual({ above: 0, below: gaps.gap, gap: 12 });
    expect(problems).toEqual([]);
    await harness.app.setPreferences({ shortcut: '' });
    await closeApp(page);
  });

  test('a name in a preset’s channel ID field is said to be a name; an empty name field says what it shows', async () => {
    const { page, problems } = await opened(width, height);
    await showView(page, 'presets');
    await page.getByRole('button', { name: 'New preset…' }).click();
    const id = page.getByLabel('Channel 1 ID');
    await id.fill('#design-review');
    expect(await id.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await id.getAttribute('id')}-error`).textContent()).toBe(
      "#design-review is a name, and this field takes the channel's ID (like C0123ABCD). Add the channel by name with “Add a channel” above.",
    );
    await id.fill('C0DESIGN');
    expect(await id.getAttribute('aria-invalid')).toBe('false');
    // Its name field is empty, and says what an empty one means under it, not as grey text
    // inside that reads as a name already typed.
    const name = page.getByLabel('Channel 1 name');
    expect(await name.inputValue()).toBe('');
    expect(await name.getAttribute('placeholder')).toBeNull();
    const help = await name.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${help}"]`).textContent()).toBe(
      'Empty: Slack’s name, #design-review',
    );
    expect(await axeAtSizes(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('crowded rows: a long badge never breaks a name mid-word, and a share’s count is never cut', async () => {
    const { demo, reference } = harness;
    const target = { workspaceId: demo.workspaceId, channels: ['C0GENERAL'] };
    reference.injectFault({ fault: { kind: 'reset-after-body' } });
    await harness.app.share({ target, paths: [await file(`contract-signed-${width}.pdf`)] });
    await harness.settled();
    // A share of ten files, two refused: "8 of 10 delivered".
    for (let i = 0; i < 2; i++)
      reference.injectFault({ fault: { kind: 'error', error: 'quota_wobbled' } });
    const ten = [];
    for (let i = 0; i < 10; i++) ten.push(await file(`batch-${i}-${width}.txt`));
    await harness.app.share({
      target: { workspaceId: demo.workspaceId, channels: ['C0DESIGN', 'C0GENERAL', 'C0RANDOM'] },
      paths: ten,
    });
    await harness.settled();

    const { page, problems } = await opened(width, height);
    // Lines the name is drawn on, and whether a text is drawn whole inside its box.
    const lines = (row: Locator) =>
      row.locator(':scope > .item__head .item__name').evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
    const recent = page.locator('.recent__item').filter({ hasText: `batch-` }).first();
    await recent.waitFor();
    const whole = await recent.locator('.recent__detail').evaluate((detail) => {
      const walker = document.createTreeWalker(detail, NodeFilter.SHOW_TEXT);
      const box = detail.getBoundingClientRect();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf('8 of 10 delivered') ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + '8 of 10 delivered'.length);
        const r = range.getBoundingClientRect();
        return r.right <= box.right + 0.5 && r.left >= box.left - 0.5;
      }
      return false;
    });
    expect(whole).toBe(true);

    for (const view of ['queue', 'history'] as const) {
      await showView(page, view);
      const row = page.getByRole('listitem', { name: `contract-signed-${width}.pdf` });
      await row.locator('.badge--unknown').waitFor();
      expect(await lines(row), view).toBe(1);
    }
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await harness.app.clearFinished();
    await closeApp(page);
  });

  it('Change destination’s open list leaves Send free', async () => {
    await harness.app.share({
      target: { workspaceId: harness.demo.workspaceId, channels: ['C0GENERAL', 'C0SECRET'] },
      paths: [await file(`moved-${width}.txt`)],
    });
    await harness.settled();
    const { page, problems } = await opened(width, height);
    await showView(page, 'queue');
    await page.getByRole('button', { name: `Change destination… for moved-${width}.txt` }).click();
    await page.getByRole('heading', { level: 1, name: 'Change destination' }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Channels' });
    await picker.fill('d');
    await page.getByRole('listbox', { name: 'Channels' }).getByRole('option').first().waitFor();
    const send = page.getByRole('button', { name: 'Send', exact: true });
    // What a click at Send's middle would reach is Send itself, not the list over it.
    const hit = await send.evaluate((button) => {
      const r = button.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return at === button || button.contains(at);
    });
    expect(hit).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await harness.app.clearFinished();
    await closeApp(page);
  });
});
