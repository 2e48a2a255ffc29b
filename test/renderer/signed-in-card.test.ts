// A signed-in workspace's card (issue 36, point 3), in real Chromium against the real core and
// the reference service: who and where ("Signed in as @alice in Globex."), Sign out, and an
// "Advanced" disclosure for the service's address, protocol and Test connection. A person who
// signed in never sees or handles a token: no token field, state, Replace or Clear.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../harness/server';
import { signInThroughConsentPage, startSignInHarness } from '../harness/sign-in-harness';
import { axeViolations, closeApp, openApp, type Scheme, screenshot, showView } from './browser';
import { testBrowser } from './shared-browser';

const CLIENT_ID = '5555555555.6666666666';

let harness: Harness;
let browser: Browser;

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
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

let signedIn = false;

describe.each([
  [360, 520, 'light'],
  [480, 640, 'dark'],
] as const)('a signed-in card at %i×%i (%s)', (width, height, scheme: Scheme) => {
  it('says who and where, offers Sign out, and folds the rest under Advanced; no token anywhere', async () => {
    if (!signedIn) {
      await signInThroughConsentPage(harness, browser, CLIENT_ID);
      signedIn = true;
    }
    const { page, problems } = await openApp(browser, harness, { scheme });
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    const card = page.getByRole('article', { name: 'Globex' });
    await card.getByText('Signed in as @alice in Globex.').waitFor();
    expect(await card.getByRole('button', { name: 'Sign out of Globex' }).isVisible()).toBe(true);
    const visible = (await card.innerText()).replace(/\s+/g, ' ');
    expect(visible).not.toMatch(/token|Base URL|Protocol|Test connection/i);
    expect(await card.getByLabel('Base URL').isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `signed-in-card-${width}`, scheme);

    await card.getByText('Advanced', { exact: true }).click();
    expect(await card.getByLabel('Base URL').isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Test connection' }).isVisible()).toBe(true);
    // Still no token: not in Advanced either.
    expect((await card.innerText()).replace(/\s+/g, ' ')).not.toMatch(/token/i);
    expect(await card.getByRole('button', { name: /Replace|Clear/ }).count()).toBe(0);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/^Connected as /).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  }, 60_000);
});
