// Sign in with Slack end to end, in real Chromium against the real core and the reference
// service: the window's button starts the core's flow, whose openBrowser opens the consent page
// in a second real page; Allow (or Deny) there sends the browser to the core's loopback listener,
// and the window says what happened. Shares then land as the signed-in person, renewals
// included, each file exactly once.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSetupLink } from '../../main/core/setup-link-check';
import { setupLinkFor } from '../../main/portable/setup-link';
import { CREATE_SLACK_APP_URL } from '../../renderer/src/views/slack-team-setup';
import { signInAndKeep } from '../auth/sign-in-helpers';
import type { Harness } from '../harness/server';
import { startSignInHarness } from '../harness/sign-in-harness';
import { axeViolations, closeApp, dropFiles, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

const CLIENT_ID = '3333333333.4444444444';

let harness: Harness;
let browser: Browser;
// How far the reference service's clock is ahead of the real one: a sign-in runs out at once.
let serviceAhead = 0;

beforeAll(async () => {
  [harness, browser] = await Promise.all([
    startSignInHarness({
      clientId: CLIENT_ID,
      serviceNow: () => Date.now() + serviceAhead,
      signer: {
        user: 'U0ALICE',
        name: 'alice',
        team: { id: 'T0ACME', name: 'Acme' },
        channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM'],
      },
    }),
    testBrowser(),
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** No workspace, nothing queued, the service's sign-in settings as Slack's. */
async function emptyApp(): Promise<void> {
  harness.reference.clearFaults();
  harness.reference.config.oauth.accessTokenLifetimeSeconds = 43_200;
  harness.reference.config.oauth.refreshTokenLifetimeSeconds = 30 * 24 * 3600;
  await harness.app.setPaused(false);
  for (const item of await harness.app.listQueue()) await harness.app.cancelItem(item.id);
  await harness.app.clearFinished();
  for (const w of (await harness.app.getSnapshot()).workspaces) {
    await harness.app.removeWorkspace(w.id);
  }
  harness.setOpenBrowser(null);
}

/**
 * The person's browser: each consent page the core opens is followed in a new real page, where
 * the person presses `decision`; resolves with what the tab said at the end.
 */
function personAnswers(decision: 'Allow' | 'Deny'): { tabs: Promise<string>[] } {
  const tabs: Promise<string>[] = [];
  harness.setOpenBrowser(async (url) => {
    // Not awaited by the core: the person answers while the app waits.
    tabs.push(
      (async () => {
        const tab = await browser.newPage();
        try {
          await tab.goto(url);
          await tab.getByRole('button', { name: decision }).click();
          await tab.waitForLoadState('load');
          return (await tab.locator('body').textContent()) ?? '';
        } finally {
          await tab.close();
        }
      })(),
    );
  });
  return { tabs };
}

/** The share sheet's channel picker: type, take the first match. */
async function pickChannel(page: Page, typed: string, option: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Channels' });
  await picker.focus();
  await page.keyboard.type(typed);
  await expect
    .poll(() =>
      page.getByRole('listbox', { name: 'Channels' }).getByRole('option').first().textContent(),
    )
    .toBe(option);
  await page.keyboard.press('Enter');
}

/** A share of one file to #general; a later sheet starts where the last share went (issue 35). */
async function shareOneFile(page: Page, name: string, again = false): Promise<void> {
  await dropFiles(page, [{ name, content: `contents of ${name}` }]);
  await page.getByRole('heading', { name: 'Share 1 file' }).waitFor();
  if (again)
    await page
      .getByRole('list', { name: 'Chosen channels' })
      .getByRole('button', { name: 'Remove #general' })
      .waitFor();
  else await pickChannel(page, 'gen', '#general, public channel');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect.poll(() => uploadsNamed(name).length, { timeout: 20_000 }).toBeGreaterThan(0);
  await harness.settled(20_000);
}

const uploadsNamed = (name: string) => harness.reference.uploads().filter((u) => u.name === name);

describe('Sign in with Slack', () => {
  it('from a set-up link: two clicks, signed in as @alice in Acme, shares land, and again after a renewal', async () => {
    await emptyApp();
    const { page, problems } = await openApp(browser, harness);
    await dropFiles(page, [{ name: 'first.txt', content: 'my first share' }]);
    await page.getByRole('heading', { name: 'Set up a workspace first' }).waitFor();
    // The team's set-up link, as main hands it over: the form asks for nothing more.
    harness.emit('setup-link', {
      baseUrl: harness.reference.url,
      clientId: CLIENT_ID,
      name: 'Acme',
    });
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await expect.poll(() => form.getByLabel('Client ID').inputValue()).toBe(CLIENT_ID);
    expect(await form.getByLabel('Base URL').inputValue()).toBe(harness.reference.url);
    // With a client ID known, the team-admin path is not in the way.
    expect(
      await form.getByRole('button', { name: 'Create the Slack app for my team' }).count(),
    ).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // The access token lasts 2 s from here: the second share needs a renewal.
    harness.reference.config.oauth.accessTokenLifetimeSeconds = 2;
    const person = personAnswers('Allow');
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    // A new workspace: who signed in, to keep, before anything is saved.
    await form
      .getByRole('group', { name: 'Slack signed in @alice in Acme. Is this you?' })
      .waitFor();
    expect(await person.tabs[0]).toContain(
      'Signed in as @alice in Acme: go back to Trayshare to keep this sign-in. You can close this tab.',
    );
    await form.getByRole('button', { name: 'Use this account' }).click();

    // Signed in: the waiting file's share sheet opens, and the team's channels are there.
    const [ws] = (await harness.app.getSnapshot()).workspaces;
    expect(ws).toMatchObject({
      name: 'Acme',
      auth: 'slack',
      clientId: CLIENT_ID,
      hasToken: true,
      signedIn: { user: '@alice', team: 'Acme', expired: false },
    });
    await pickChannel(page, 'gen', '#general, public channel');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect.poll(() => uploadsNamed('first.txt').length, { timeout: 20_000 }).toBe(1);
    await harness.settled(20_000);
    expect(uploadsNamed('first.txt')).toHaveLength(1);
    expect(uploadsNamed('first.txt')[0]!.user).toBe('U0ALICE');

    // Settings says who, in the words people read.
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card.getByText('Signed in as @alice in Acme.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The access token runs out; the next share renews it first and lands exactly once.
    const renewed = harness.reference.renewals();
    const expiresAt = (await harness.app.getSnapshot()).workspaces[0]!.tokenExpiresAt!;
    await expect.poll(() => Date.now() > expiresAt, { timeout: 10_000 }).toBe(true);
    await showView(page, 'drop');
    await shareOneFile(page, 'second.txt', true);
    expect(uploadsNamed('second.txt')).toHaveLength(1);
    expect(harness.reference.renewals()).toBeGreaterThan(renewed);
    expect(uploadsNamed('first.txt')).toHaveLength(1);
    const [history] = await harness.app.listHistory({ search: 'second.txt' });
    expect(history?.outcome).toBe('delivered');
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('the team-admin path (create the app, copy the set-up link); a person who denies sees one plain sentence, and nothing is saved', async () => {
    await emptyApp();
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    // No client ID known: the team-admin path is offered, folded for admins, and the admin
    // pastes the ID.
    await form.getByText('I look after our Slack: set Trayshare up for the team').click();
    const create = form.getByRole('button', { name: 'Create the Slack app for my team' });
    await create.click();
    // Slack's "create an app" page, with the repository's manifest filled in.
    await expect.poll(() => harness.opened.at(-1)).toBe(CREATE_SLACK_APP_URL);
    await form.getByLabel('Client ID').fill(CLIENT_ID);
    await form.getByLabel('Base URL').fill(harness.reference.url);
    // The admin shares the app with the team: a link with no token, that the app reads back.
    await form.getByRole('button', { name: 'Copy set-up link for your team' }).click();
    await form.getByText(/^Set-up link copied\./).waitFor();
    expect(parseSetupLink(harness.copied.at(-1)!)).toEqual({
      ok: true,
      link: { baseUrl: harness.reference.url, clientId: CLIENT_ID },
    });
    const person = personAnswers('Deny');
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    const answer = form.locator('#sign-in-answer');
    await answer.getByRole('alert').waitFor();
    await person.tabs[0];
    const sentence = (await answer.textContent()) ?? '';
    // One sentence, no code: what happened and what to do.
    expect(sentence).toMatch(/^[A-Z][^.]*(\.|\. [A-Z][^.]*\.)$/);
    expect(sentence).not.toMatch(/access_denied/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('sign-in-answer');
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    // The button is there again for another try.
    expect(await form.getByRole('button', { name: 'Sign in with Slack' }).isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('before a new workspace is kept, shows who signed in: Cancel (and Esc) keeps no workspace and no token, "Use this account" keeps it', async () => {
    await emptyApp();
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    harness.emit('setup-link', {
      baseUrl: harness.reference.url,
      clientId: CLIENT_ID,
      name: 'Acme',
    });
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await expect.poll(() => form.getByLabel('Client ID').inputValue()).toBe(CLIENT_ID);
    const issued = () =>
      harness.reference.signInSecrets().filter((s) => s.startsWith('xoxe.xoxp-'));
    /** auth.test's answer to each issued access token: undefined while it works. */
    const answers = () =>
      Promise.all(
        issued().map(async (token) => {
          const res = await fetch(`${harness.reference.url}/api/auth.test`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
          });
          return ((await res.json()) as { error?: string }).error;
        }),
      );
    const before = issued().length;
    const question = form.getByRole('group', {
      name: 'Slack signed in @alice in Acme. Is this you?',
    });

    // Cancel: nothing kept, and the sign-in ended at the service.
    personAnswers('Allow');
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    await question.waitFor();
    // Focus is on who signed in, not on a button a stray Enter would press.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Slack signed in @alice in Acme. Is this you?');
    expect(await question.getByRole('button', { name: 'Use this account' }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await form
      .getByText(
        'You did not keep the sign-in of @alice in Acme, so nothing was saved and the sign-in was ended at the service.',
      )
      .waitFor();
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    expect((await answers()).slice(before)).toEqual(['token_revoked']);

    // Esc answers Cancel the same way.
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    await question.waitFor();
    await page.keyboard.press('Escape');
    await form.getByText(/^You did not keep the sign-in of @alice in Acme/).waitFor();
    expect(await question.count()).toBe(0);
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    expect((await answers()).slice(before)).toEqual(['token_revoked', 'token_revoked']);

    // Use this account: kept, as @alice in Acme, with its token.
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    await question.getByRole('button', { name: 'Use this account' }).click();
    await expect.poll(async () => (await harness.app.getSnapshot()).workspaces.length).toBe(1);
    expect((await harness.app.getSnapshot()).workspaces[0]).toMatchObject({
      name: 'Acme',
      hasToken: true,
      signedIn: { user: '@alice', team: 'Acme', expired: false },
    });
    expect((await answers()).slice(before)).toEqual(['token_revoked', 'token_revoked', undefined]);
    await page
      .getByRole('article', { name: 'Acme' })
      .getByText('Signed in as @alice in Acme.')
      .waitFor();
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a set-up link pasted in the form fills it in; a malformed one is refused at the field', async () => {
    await emptyApp();
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    const field = form.getByLabel('Set-up link from your team');
    const good = setupLinkFor({
      baseUrl: harness.reference.url,
      clientId: CLIENT_ID,
      name: 'Acme',
    });
    await field.fill(`${good}&token=xoxb-1-2`);
    await field.press('Enter');
    const refusal = form.locator('#sign-in-setup-link-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      'This set-up link cannot be used: it carries token, which a set-up link never has. Ask for a new one from whoever shared it.',
    );
    expect(await form.getByLabel('Client ID').inputValue()).toBe('');
    expect(await axeViolations(page)).toEqual([]);

    await field.fill(good);
    await form.getByRole('button', { name: 'Use link' }).click();
    await form.getByText('Set up from your team’s link for Acme.').waitFor();
    expect(await form.getByLabel('Client ID').inputValue()).toBe(CLIENT_ID);
    expect(await form.getByLabel('Base URL').inputValue()).toBe(harness.reference.url);
    // Nothing is saved before the person signs in.
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('waits for the browser with Cancel focused; Cancel ends it and saves nothing', async () => {
    await emptyApp();
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await form.getByText('I look after our Slack: set Trayshare up for the team').click();
    await form.getByLabel('Client ID').fill(CLIENT_ID);
    await form.getByLabel('Base URL').fill(harness.reference.url);
    // The browser opens, and the person never answers.
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    await form.getByText('Waiting for you to approve in your browser…').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Cancel');
    expect(harness.browserOpened.at(-1)).toMatch(/\/oauth\/v2\/authorize\?/);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await form.getByRole('button', { name: 'Sign in with Slack' }).waitFor();
    expect(await form.getByText('Waiting for you to approve').count()).toBe(0);
    expect(await form.locator('#sign-in-answer').textContent()).not.toBe('');
    expect((await harness.app.getSnapshot()).workspaces).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a sign-in that ran out shows Sign in again; its waiting file goes once signed in again', async () => {
    await emptyApp();
    // Refresh tokens that last 6 s: the sign-in runs out while a file waits in the queue.
    harness.reference.config.oauth.accessTokenLifetimeSeconds = 1;
    harness.reference.config.oauth.refreshTokenLifetimeSeconds = 6;
    personAnswers('Allow');
    const signed = await signInAndKeep(harness.app, {
      baseUrl: harness.reference.url,
      clientId: CLIENT_ID,
    });
    expect(signed.ok).toBe(true);
    const workspaceId = signed.ok ? signed.workspaceId : '';
    await harness.app.setPaused(true);
    const path = join(harness.filesDir, 'waits.txt');
    await writeFile(path, 'waits for the sign-in');
    await harness.app.share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths: [path] });
    // Past the last refresh token's 6 s (the share renewed once, at most now): the service's
    // clock moves on, rather than the test waiting them out.
    serviceAhead += 7000;
    harness.reference.config.oauth.accessTokenLifetimeSeconds = 43_200;
    harness.reference.config.oauth.refreshTokenLifetimeSeconds = 30 * 24 * 3600;
    await harness.app.setPaused(false);
    await expect
      .poll(async () => (await harness.app.getSnapshot()).workspaces[0]?.signedIn?.expired, {
        timeout: 15_000,
      })
      .toBe(true);
    expect(uploadsNamed('waits.txt')).toEqual([]);

    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card
      .getByText('Your sign-in to Acme has run out. 1 file waits and goes once you sign in again.')
      .waitFor();
    // Getting started does not count a run-out sign-in as a working token.
    const steps = page.getByRole('region', { name: 'Getting started' }).getByRole('listitem');
    expect(await steps.nth(1).textContent()).not.toContain('(done)');
    expect(await axeViolations(page)).toEqual([]);

    personAnswers('Allow');
    await card.getByRole('button', { name: 'Sign in again' }).click();
    await card.getByText('Signed in as @alice in Acme.').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id ?? ''))
      .toBe(`ws-${workspaceId}-signed-in`);
    await expect.poll(() => uploadsNamed('waits.txt').length, { timeout: 20_000 }).toBe(1);
    await harness.settled(20_000);
    expect(uploadsNamed('waits.txt')).toHaveLength(1);
    // Still the same workspace, not a second one.
    expect((await harness.app.getSnapshot()).workspaces.map((w) => w.id)).toEqual([workspaceId]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('Sign out asks first when files wait, and then signs out', async () => {
    await emptyApp();
    personAnswers('Allow');
    const signed = await signInAndKeep(harness.app, {
      baseUrl: harness.reference.url,
      clientId: CLIENT_ID,
    });
    expect(signed.ok).toBe(true);
    const { page, problems } = await openApp(browser, harness);
    await harness.app.setPaused(true);
    await dropFiles(page, [
      { name: 'a.txt', content: 'a' },
      { name: 'b.txt', content: 'b' },
    ]);
    await page.getByRole('heading', { name: 'Share 2 files' }).waitFor();
    await pickChannel(page, 'gen', '#general, public channel');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect.poll(async () => (await harness.app.listQueue()).length).toBe(2);

    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Acme' });
    await card.getByRole('button', { name: 'Sign out of Acme' }).click();
    await card.getByText('2 files wait for Acme. Sign out anyway?').waitFor();
    // Asked, focus is on the safe answer.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Stay signed in');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    expect((await harness.app.getSnapshot()).workspaces[0]!.hasToken).toBe(true);

    await card.getByRole('button', { name: 'Sign out of Acme' }).click();
    await card.getByRole('button', { name: 'Sign out', exact: true }).click();
    await card.getByText(/^You are signed out of Acme\./).waitFor();
    // The button pressed is gone: focus is on what the card now says, not on nothing.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id ?? ''))
      .toMatch(/^ws-.+-signed-in$/);
    expect((await harness.app.getSnapshot()).workspaces[0]!.hasToken).toBe(false);
    expect(await card.getByRole('button', { name: 'Sign in again' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await harness.app.setPaused(false);
    await closeApp(page);
  });
});
