// The first run in both builds (issue 36, points 7 and 8), through the harness in real Chromium.
// A build with a default Slack client ID shows only "Sign in with Slack" (the workspace is
// chosen on Slack's page), and the harness can finish it: the consent page shows as a link the
// person opens, where Allow signs them in. A build without one leads with asking the Slack admin
// for a set-up link and "Use a token"; creating the team's Slack app is folded away for admins.
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../harness/server';
import { startSignInHarness } from '../harness/sign-in-harness';
import { axeViolations, closeApp, openApp, type Scheme, screenshot } from './browser';
import { testBrowser } from './shared-browser';

const CLIENT_ID = '7777777777.8888888888';

async function harnessFor(slackClientId: string): Promise<Harness> {
  const harness = await startSignInHarness({
    clientId: CLIENT_ID,
    signer: {
      user: 'U0ALICE',
      name: 'alice',
      team: { id: 'T0ACME', name: 'Acme Corp' },
      channels: ['C0GENERAL'],
    },
    slackClientId,
  });
  // A first run: no workspace yet.
  for (const w of (await harness.app.getSnapshot()).workspaces)
    await harness.app.removeWorkspace(w.id);
  return harness;
}

let withId: Harness;
let withoutId: Harness;
let browser: Browser;

beforeAll(async () => {
  [withId, withoutId, browser] = await Promise.all([
    harnessFor(CLIENT_ID),
    harnessFor(''),
    testBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await withId?.close();
  await withoutId?.close();
});

/** The names of the buttons and field labels a person sees in `form`. */
async function seen(form: Locator): Promise<{ buttons: string[]; fields: string[] }> {
  return form.evaluate((el) => {
    const shown = (e: Element) => e.checkVisibility();
    return {
      buttons: [...el.querySelectorAll('button')]
        .filter(shown)
        .map((b) => b.textContent?.trim() ?? ''),
      fields: [...el.querySelectorAll('label')]
        .filter(shown)
        .map((l) => l.textContent?.trim() ?? ''),
    };
  });
}

describe.each([
  [360, 520, 'light'],
  [480, 640, 'dark'],
] as const)('the first run at %i×%i (%s)', (width, height, scheme: Scheme) => {
  it('a build with a client ID: only "Sign in with Slack", and the harness can finish it', async () => {
    const { page, problems } = await openApp(browser, withId, { scheme, hash: 'settings' });
    await page.setViewportSize({ width, height });
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await form.waitFor();
    expect(await seen(form)).toEqual({ buttons: ['Sign in with Slack'], fields: [] });
    expect(await form.innerText()).not.toMatch(/Client ID|Base URL|App Credentials/);
    expect(await axeViolations(page)).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `first-run-client-id-${width}`, scheme);

    // The reference service stands in for slack.com here: its address is the one detail to set.
    await form.getByText('Other ways to connect').click();
    await form.getByLabel('Base URL').fill(withId.reference.url);
    await form.getByRole('button', { name: 'Sign in with Slack' }).click();
    // The consent page, as a link in the harness's window; Allow there signs the person in.
    const link = page.getByRole('link', { name: 'Open the sign-in page (reference service)' });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.getByRole('button', { name: 'Allow' }).click();
    await tab.waitForLoadState('load');
    await tab.close();
    // A new workspace: kept once the person says who signed in is them.
    await form.getByRole('button', { name: 'Use this account' }).click();
    await page
      .getByRole('article', { name: 'Acme Corp' })
      .getByText('Signed in as @alice in Acme Corp.')
      .waitFor({ timeout: 20_000 });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    for (const w of (await withId.app.getSnapshot()).workspaces)
      await withId.app.removeWorkspace(w.id);
    await closeApp(page);
  }, 60_000);

  it('a build without one: ask the Slack admin for a set-up link, or use a token; the admin part folded', async () => {
    const { page, problems } = await openApp(browser, withoutId, { scheme, hash: 'settings' });
    await page.setViewportSize({ width, height });
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await form.waitFor();
    const text = (await form.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/^Sign in with Slack Ask your Slack admin for a Trayshare set-up link\./);
    expect(text).not.toMatch(/Client ID|Base URL|App Credentials/);
    expect(await seen(form)).toEqual({
      buttons: ['Use link', 'Use a token'],
      fields: ['Set-up link from your team'],
    });
    expect(await axeViolations(page)).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, `first-run-no-client-id-${width}`, scheme);
    await form.getByText('I look after our Slack: set Trayshare up for the team').click();
    expect(
      await form.getByRole('button', { name: 'Create the Slack app for my team' }).isVisible(),
    ).toBe(true);
    expect(await form.getByLabel('Client ID').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});
