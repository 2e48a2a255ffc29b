// Advice that fits the person (issue 36, point 4), in real Chromium against the real core and
// the reference service. A person signed in with Slack who is not in a channel is told the
// channel's name and to join it (there is no app to invite); Retry is offered only where the
// cause can change on its own; a workspace without a token says so once, in the app's words.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../harness/server';
import { signInThroughConsentPage, startSignInHarness } from '../harness/sign-in-harness';
import { closeApp, dropFiles, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';
import { axeAtSizes, SMALL_ONLY } from './sizes';

const CLIENT_ID = '5555555555.6666666666';

let harness: Harness;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    startSignInHarness({
      clientId: CLIENT_ID,
      signer: {
        user: 'U0ALICE',
        name: 'alice',
        team: { id: 'T0GLOBEX', name: 'Globex' },
        channels: ['C0GENERAL', 'C0RANDOM'],
      },
    }),
    testBrowser(),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-advice-test-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function file(name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `bytes of ${name}`);
  return path;
}

let alice = '';

describe.each(SMALL_ONLY)('advice at %i×%i', (width, height) => {
  it('a signed-in person not in #random is told its name and to join it, with no Retry', async () => {
    alice ||= await signInThroughConsentPage(harness, browser, CLIENT_ID);
    const channels = harness.reference.config.oauth.signers[0]!.channels;
    if (!channels.includes('C0RANDOM')) channels.push('C0RANDOM');
    // Names known, as after the picker listed them; then Alice leaves #random.
    await harness.app.listConversations(alice, { refresh: true, wait: true });
    channels.splice(channels.indexOf('C0RANDOM'), 1);
    await harness.app.share({
      target: { workspaceId: alice, channels: ['C0RANDOM'] },
      paths: [await file(`left-${width}.txt`)],
    });
    await harness.app.share({
      target: { workspaceId: alice, channels: ['C0GENERAL', 'C0RANDOM'] },
      paths: [await file(`partly-${width}.txt`)],
    });
    await harness.settled();

    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await showView(page, 'queue');
    const one = page.getByRole('listitem', { name: `left-${width}.txt` });
    expect(await one.locator('.item__detail').textContent()).toContain(
      'Not shared: you are not in #random. Join #random in Slack, or choose another channel.',
    );
    const partly = page.getByRole('listitem', { name: `partly-${width}.txt` });
    expect(await partly.locator('.item__detail').textContent()).toContain(
      'Not shared: you are not in #random. Join #random in Slack, or send to the others (#general), or change the destination.',
    );
    for (const row of [one, partly]) {
      expect(await row.textContent()).not.toMatch(/invite|C0RANDOM/i);
      expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    }
    expect(await page.getByRole('button', { name: /^Retry all failed/ }).count()).toBe(0);
    expect(await axeAtSizes(page)).toEqual([]);

    await harness.app.clearFinished();
    await expect.poll(async () => (await harness.app.listQueue()).length).toBe(0);
    await showView(page, 'history');
    const past = page.getByRole('listitem').filter({ hasText: `left-${width}.txt` });
    await past.first().waitFor();
    expect(await past.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  it('the picker tells a signed-in person to join a channel they are not in, not to invite an app', async () => {
    alice ||= await signInThroughConsentPage(harness, browser, CLIENT_ID);
    const channels = harness.reference.config.oauth.signers[0]!.channels;
    if (channels.includes('C0RANDOM')) channels.splice(channels.indexOf('C0RANDOM'), 1);
    await harness.app.listConversations(alice, { refresh: true, wait: true });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await dropFiles(page, [{ name: `pick-${width}.txt`, content: 'x' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    await page.getByLabel('Workspace').selectOption({ label: 'Globex' });
    const picker = page.getByRole('combobox', { name: 'Channels' });
    await picker.fill('random');
    const option = page.getByRole('listbox', { name: 'Channels' }).getByRole('option', {
      name: /random/,
    });
    await expect.poll(() => option.first().textContent()).toContain('join it in Slack first');
    await picker.fill('#random');
    await picker.press('Enter');
    await expect
      .poll(() => page.locator('#share-channels-help').textContent())
      .toBe('You are not in #random: join it in Slack first.');
    expect(await page.locator('form.sheet').innerText()).not.toMatch(/invite/i);
    expect(await axeAtSizes(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);

  it('a share to a workspace without a token says so once, in the app’s words', async () => {
    const bare = await harness.app.addWorkspace({
      name: `Bare ${width}`,
      baseUrl: harness.reference.url,
      protocol: 'files.upload',
    });
    const { page, problems } = await openApp(browser, harness);
    await page.setViewportSize({ width, height });
    await dropFiles(page, [{ name: `bare-${width}.txt`, content: 'x' }]);
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
    await page.getByRole('radio', { name: 'Channels' }).check();
    await page.getByLabel('Workspace').selectOption({ label: `Bare ${width}` });
    const picker = page.getByRole('combobox', { name: 'Channels' });
    await picker.fill('C0GENERAL');
    await picker.press('Enter');
    await page.getByRole('list', { name: 'Chosen channels' }).getByText('C0GENERAL').waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    // Share goes to the way out the sheet already shows, instead of saying it again.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Add the token in Settings');
    const sheet = (await page.locator('form.sheet').innerText()).replace(/\s+/g, ' ');
    // Said once: the picker's help line leaves it to the notice with the way out.
    expect(sheet.match(/no token/gi)).toHaveLength(1);
    expect(sheet).not.toMatch(/trayshare login/);
    expect(await axeAtSizes(page)).toEqual([]);
    expect(problems).toEqual([]);
    await harness.app.removeWorkspace(bare.id);
    await closeApp(page);
  }, 60_000);
});
