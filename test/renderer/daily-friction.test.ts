// The small things a daily user meets, in real Chromium against the real core and the
// reference service: names instead of IDs, recent shares (not files), History found by the
// workspace's name, a private channel's lock drawn without an emoji font, and the drop view
// saying first that no workspace is set up.
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../harness/seed';
import { type Harness, startHarness } from '../harness/server';
import { defaultTestConfig } from '../reference-service/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, itOnce, SIZES } from './sizes';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    startHarness({
      // The app is in the private #secret-plans too, so the picker lists it with its lock.
      serviceConfig: {
        tokens: {
          ...defaultTestConfig.tokens,
          [DEMO_TOKEN]: {
            user: 'U0TEST',
            channels: [...defaultTestConfig.tokens[DEMO_TOKEN]!.channels, 'C0SECRET'],
          },
        },
      },
    }),
    testBrowser(),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-daily-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function files(prefix: string, count: number): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 1; i <= count; i++) {
    const path = join(dir, `${prefix}-${i}.txt`);
    await writeFile(path, `${prefix} ${i}`);
    paths.push(path);
  }
  return paths;
}

describe.each(SIZES)('at %i×%i', (width, height) => {
  // `test`: behaviour, run at 360×520 only; `it`: layout, at both sizes (sizes.ts).
  const test = itOnce(width);
  test('shows channel names, not IDs, where a name is known: drop view, Presets, the sheet', async () => {
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    const preset = page.locator('.facts__row').filter({ hasText: 'Default preset' }).locator('dd');
    await expect.poll(() => preset.textContent()).toBe('Design review → #design-review, #general');
    // The IDs are there on hover, for whoever needs them.
    expect(await preset.locator('[title]').getAttribute('title')).toBe(
      '#design-review: C0DESIGN, C0GENERAL',
    );

    await showView(page, 'presets');
    const detail = page.getByRole('listitem', { name: 'Design review' }).locator('.item__detail');
    await expect.poll(() => detail.textContent()).toBe('#design-review, #general in Acme');

    await page.getByRole('button', { name: 'Edit Design review' }).click();
    await page.getByRole('heading', { name: 'Edit “Design review”' }).waitFor();
    expect(await page.getByText('The ID is what the service needs').count()).toBe(0);
    // Each channel row leads with its name: the one saved, or the workspace's, said under it.
    expect(await page.getByLabel('Channel 1 name').inputValue()).toBe('design-review');
    await expect.poll(() => page.getByText('Empty: Slack’s name, #general').count()).toBe(1);
    await page.keyboard.press('Escape');

    harness.pick(await files(`names-${width}`, 1));
    await showView(page, 'drop');
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await expect
      .poll(() => page.locator('.summary').textContent())
      .toBe('1 file → #design-review, #general in Acme, no comment');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test('lists recent shares, not files: a 12-file share is one line', async () => {
    const { app, demo } = harness;
    await app.share({
      target: { presetId: demo.randomPresetId },
      paths: await files(`batch-${width}`, 12),
    });
    // Finished first, so the single file is the newest share.
    await harness.settled();
    await app.share({
      target: { presetId: demo.randomPresetId },
      paths: await files(`single-${width}`, 1),
    });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    const recent = page.getByRole('region', { name: 'Recent uploads' }).getByRole('listitem');
    await expect
      .poll(() => recent.locator('.recent__name').allTextContents())
      .toEqual(
        expect.arrayContaining([
          `single-${width}-1.txt`,
          expect.stringMatching(/^12 files: batch-/),
        ]),
      );
    const names = await recent.locator('.recent__name').allTextContents();
    expect(names.indexOf(`single-${width}-1.txt`)).toBe(0);
    expect(names[1]).toMatch(/^12 files: batch-\d+-\d+\.txt, …$/);
    expect(await recent.nth(1).locator('.recent__detail').textContent()).toMatch(/→ #random$/);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test("History finds a workspace's uploads by the workspace's name", async () => {
    const globex = await harness.app.addWorkspace({
      name: `Globex ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(globex.id, DEMO_TOKEN);
    const [path] = await files(`globex-${width}`, 1);
    await harness.app.share({
      target: { workspaceId: globex.id, channels: ['C0GENERAL'] },
      paths: [path!],
    });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'history');
    await page.getByLabel('Search history').fill(`globex ${width}`);
    const rows = page.getByRole('list', { name: 'Finished uploads' }).getByRole('listitem');
    await expect
      .poll(() => rows.locator('.item__name').allTextContents())
      .toEqual([`globex-${width}-1.txt`]);
    expect(await rows.locator('.item__detail').textContent()).toContain(`in Globex ${width}`);
    await harness.app.removeWorkspace(globex.id);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('cuts nothing off: share titles and file names wrap, a long destination is readable whole', async () => {
    const long = `the-quarterly-planning-session-recording-final-version-${width}.txt`;
    const [other] = await files(`short-${width}`, 1);
    const path = join(dir, long);
    await writeFile(path, 'long name');
    await harness.app.share({
      target: {
        workspaceId: harness.demo.workspaceId,
        channels: ['C0GENERAL', 'C0RANDOM', 'C0DESIGN', 'C0DESIGNX'],
      },
      paths: [path, other!],
    });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const share = page
      .getByRole('listitem', { name: /^2 files → #general, #random, #design-review and 1 more/ })
      .filter({ hasText: long });
    await share.waitFor();
    expect(await share.locator(':scope > .item__detail').first().textContent()).toBe(
      'To #general, #random, #design-review, #design',
    );
    // Every name and title shows whole: nothing is wider than the box it is drawn in.
    const clipped = await page
      .locator('.item__name')
      .evaluateAll((els) =>
        els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
      );
    expect(clipped).toEqual([]);
    expect(await share.getByText(long).isVisible()).toBe(true);

    // The token field's hint fits its box beside the buttons.
    await showView(page, 'settings');
    const token = page.getByRole('article', { name: 'Acme' }).getByLabel(/^Token/);
    const fits = await token.evaluate((input) => {
      const el = input as HTMLInputElement;
      const style = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return ctx.measureText(el.placeholder).width <= room;
    });
    expect(fits).toBe(true);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test('states the 1 GiB limit as 1.07 GB, below a 1.1 GB file it refuses', async () => {
    const path = join(dir, `film-${width}.mov`);
    // Sparse: the sheet only asks its size.
    const handle = await open(path, 'w');
    await handle.truncate(1_100_000_000);
    await handle.close();
    harness.pick([path]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 0 files' }).waitFor();
    await expect
      .poll(() => page.locator('.file-list__refused').textContent())
      .toBe('Not shared: Too large: 1.1 GB; this workspace accepts files up to 1.07 GB.');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test('asks about an empty file before Share, since Slack refuses empty files', async () => {
    const empty = join(dir, `empty-${width}.txt`);
    await writeFile(empty, '');
    const [full] = await files(`full-${width}`, 1);
    harness.pick([empty, full!]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    const ask = page.getByRole('group', { name: 'Share empty files?' });
    await expect
      .poll(() => ask.locator('.confirm__question').textContent())
      .toBe(`empty-${width}.txt is empty (0 bytes), and Slack refuses empty files.`);
    expect(await axeAtSizes(page)).toEqual([]);

    // Share is held until the question is answered, and says why.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    expect(await page.locator('.sheet__footer').getByRole('alert').textContent()).toBe(
      `empty-${width}.txt is empty (0 bytes), and Slack refuses empty files. Leave it out, or share anyway.`,
    );
    expect(
      (await harness.app.listQueue()).filter(
        (i) => i.name.endsWith(`-${width}.txt`) && i.name.startsWith('empty'),
      ),
    ).toEqual([]);
    expect((await harness.app.listQueue()).filter((i) => i.name === `full-${width}-1.txt`)).toEqual(
      [],
    );

    await ask.getByRole('button', { name: 'Leave it out' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    expect(await ask.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Add files…');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    await harness.settled();
    expect(
      harness.reference
        .uploads()
        .filter((u) => u.name.includes(`-${width}.txt`) && u.name.startsWith('empty')),
    ).toEqual([]);
    expect(
      harness.reference.uploads().filter((u) => u.name === `full-${width}-1.txt`),
    ).toHaveLength(1);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test("a preset of two channels plus a thread leads to choosing the thread's channel in the sheet", async () => {
    const [path] = await files(`thread-${width}`, 1);
    harness.pick([path!]);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page
      .getByLabel(/^Reply in thread/)
      .fill('https://acme.slack.com/archives/C0GENERAL/p1700000000123456');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const why = page.locator('.sheet__footer').getByRole('alert');
    expect(await why.textContent()).toBe(
      'A reply in a thread goes to one channel, and this preset has 2. Choose the channel instead',
    );
    await why.getByRole('button', { name: 'Choose the channel instead' }).click();
    const chips = page.getByRole('list', { name: 'Chosen channels' }).getByRole('listitem');
    await expect.poll(() => chips.allTextContents()).toEqual(['#general×']);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('share-channels');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    await harness.settled();
    expect(
      harness.reference
        .uploads()
        .filter((u) => u.name === `thread-${width}-1.txt`)
        .map((u) => [u.channels, u.thread_ts]),
    ).toEqual([[['C0GENERAL'], '1700000000.123456']]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test('removing a workspace with files waiting says so, and cancels them with that reason', async () => {
    const temp = await harness.app.addWorkspace({
      name: `Temp ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(temp.id, DEMO_TOKEN);
    harness.setThrottle(64 * 1024);
    const paths: string[] = [];
    for (const n of [1, 2]) {
      const path = join(dir, `waiting-${width}-${n}.bin`);
      const handle = await open(path, 'w');
      await handle.truncate(8 * 1024 * 1024);
      await handle.close();
      paths.push(path);
    }
    await harness.app.share({ target: { workspaceId: temp.id, channels: ['C0GENERAL'] }, paths });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: `Temp ${width}` });
    await card.getByRole('button', { name: `Remove workspace Temp ${width}` }).click();
    const ask = card.getByRole('group', {
      name: `Remove Temp ${width} and its token? 2 files are waiting to be sent there: removing it cancels them.`,
    });
    await ask.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Keep the workspace');
    await ask.getByRole('button', { name: 'Cancel them and remove' }).click();
    await expect.poll(() => card.count()).toBe(0);
    harness.setThrottle(null);
    await harness.settled();

    await showView(page, 'queue');
    for (const n of [1, 2]) {
      const row = page.getByRole('listitem', { name: `waiting-${width}-${n}.bin` });
      await expect
        .poll(() => row.locator('.item__detail').textContent())
        .toMatch(/in Temp \d+ \(removed\)\. Cancelled: its workspace was removed\.$/);
      expect(await row.getByRole('button', { name: /Retry/ }).count()).toBe(0);
    }
    expect(
      harness.reference.uploads().filter((u) => u.name.startsWith(`waiting-${width}`)),
    ).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test('a file queued during a rate limit says what it waits for, with the time left', async () => {
    harness.reference.injectFault({
      method: 'files.upload',
      fault: { kind: 'ratelimit', retryAfter: 30 },
    });
    // A workspace of its own: the pause it is asked for outlasts this test.
    const busy = await harness.app.addWorkspace({
      name: `Busy ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    await harness.app.setToken(busy.id, DEMO_TOKEN);
    const target = { workspaceId: busy.id, channels: ['C0RANDOM'] };
    const [first] = await files(`limited-${width}`, 1);
    const [second] = await files(`after-${width}`, 1);
    await harness.app.share({ target, paths: [first!] });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const limited = page.getByRole('listitem', { name: `limited-${width}-1.txt` });
    await limited.locator('.badge--waiting').waitFor();
    await harness.app.share({ target, paths: [second!] });
    const row = page.getByRole('listitem', { name: `after-${width}-1.txt` });
    await expect
      .poll(() => row.locator('.item__detail').textContent())
      .toMatch(
        /^\d+ bytes → #random in Busy \d+\. The service asked to slow down: it starts in \d+ s\.$/,
      );
    expect(await row.locator('.item__detail').textContent()).not.toContain('free slot');
    for (const item of await harness.app.listQueue())
      if (item.state === 'queued' || item.state === 'waiting')
        await harness.app.cancelItem(item.id);
    await harness.app.removeWorkspace(busy.id);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  test("puts the service's code in small print after the sentence, not in it", async () => {
    harness.reference.injectFault({ fault: { kind: 'error', error: 'method_deprecated' } });
    const [path] = await files(`retired-${width}`, 1);
    await harness.app.share({ target: { presetId: harness.demo.randomPresetId }, paths: [path!] });
    await harness.settled();
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const detail = page
      .getByRole('listitem', { name: `retired-${width}-1.txt` })
      .locator('.item__detail');
    await expect
      .poll(() => detail.locator('small').textContent())
      .toBe(" Service's answer: method_deprecated.");
    const sentence = (await detail.textContent())!.replace(
      " Service's answer: method_deprecated.",
      '',
    );
    expect(sentence).toMatch(/no longer offers files\.upload\. Switching the workspace/);
    expect(sentence).not.toContain('method_deprecated');
    expect(await axeAtSizes(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('draws the lock of a private channel without an emoji font', async () => {
    harness.pick(await files(`lock-${width}`, 1));
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Choose files…' }).click();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    await page.getByRole('combobox', { name: 'Channels' }).focus();
    await page.keyboard.type('secret');
    const option = page.getByRole('listbox', { name: 'Channels' }).getByRole('option');
    await expect.poll(() => option.allTextContents()).toEqual(['secret-plans, private channel']);
    // An inline drawing in the text's colour, not a character a font may lack.
    const icon = option.locator('.picker-option__icon');
    expect(await icon.locator('svg').count()).toBe(1);
    expect(await icon.textContent()).toBe('');
    const box = await icon.locator('svg').boundingBox();
    expect(box!.width).toBeGreaterThan(8);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});

// Last: it leaves the app without its workspace.
describe.each(SIZES)('with no workspace, at %i×%i', (width, height) => {
  it('the drop view says so first, above the target, and leads to Settings', async () => {
    for (const w of (await harness.app.getSnapshot()).workspaces)
      await harness.app.removeWorkspace(w.id);
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    const notice = page.getByRole('status').filter({ hasText: 'No workspace is set up yet.' });
    const box = await notice.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(height);
    const zone = await page.locator('.dropzone').boundingBox();
    expect(box!.y).toBeLessThan(zone!.y);
    // No link on to Presets, which cannot be used yet.
    expect(
      await page
        .getByRole('button', { name: /Presets/ })
        .filter({ hasText: 'choose' })
        .count(),
    ).toBe(0);
    await notice.getByRole('button', { name: 'Add one in Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
