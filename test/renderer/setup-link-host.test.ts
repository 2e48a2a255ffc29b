// A team's set-up link in the window, in real Chromium against the real core: a link to a host
// that is not slack.com shows that host, large and plain, before anything opens; a Slack-shaped
// client ID sent to another host is warned about; an international look-alike host shows in
// the ASCII form the browser will use. The link arrives as main hands it over (parsed by
// main/core/setup-link-check.ts).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSetupLink } from '../../main/core/setup-link-check';
import { type SetupLink, setupLinkFor } from '../../main/portable/setup-link';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** What main hands the window for this link: parsed and checked first. */
function handedOver(link: SetupLink): SetupLink {
  const checked = parseSetupLink(setupLinkFor(link));
  if (!checked.ok) throw new Error(checked.error);
  return checked.link;
}

describe('a set-up link to a host that is not slack.com', () => {
  it('shows that host large and plain, with a warning for a Slack-looking client ID, and opens nothing', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    const host = new URL(harness.reference.url).host;
    harness.emit(
      'setup-link',
      handedOver({
        baseUrl: harness.reference.url,
        clientId: '1234567890.1234567890',
        name: 'Slack',
      }),
    );
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    const shown = form.locator('#sign-in-host-name');
    await shown.waitFor();
    expect(await shown.textContent()).toBe(host);
    // Large: bigger than the text around it.
    const sizes = await page.evaluate(() => {
      const name = document.getElementById('sign-in-host-name')!;
      const body = getComputedStyle(document.body).fontSize;
      return [Number.parseFloat(getComputedStyle(name).fontSize), Number.parseFloat(body)];
    });
    expect(sizes[0]).toBeGreaterThan(sizes[1]! * 1.3);
    expect(await form.getByText('This is not Slack (slack.com).', { exact: false }).count()).toBe(
      1,
    );
    expect(
      await form.getByRole('status').filter({ hasText: 'looks like a Slack app’s' }).textContent(),
    ).toContain(`${host} is not Slack`);
    // Nothing has opened: the person has seen where it goes before choosing to sign in.
    expect(harness.browserOpened).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('an international look-alike of slack.com shows as what it is (xn--…)', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    harness.emit(
      'setup-link',
      handedOver({ baseUrl: 'https://slаck.com', clientId: '1234567890.1234567890', name: 'Acme' }),
    );
    const shown = page.locator('#sign-in-host-name');
    await shown.waitFor();
    expect(await shown.textContent()).toBe('xn--slck-63d.com');
    expect(harness.browserOpened).toEqual([]);
    expect(problems).toEqual([]);
    await closeApp(page);
  });

  it('a link to slack.com itself shows no such warning', async () => {
    const { page, problems } = await openApp(browser, harness);
    await showView(page, 'settings');
    harness.emit(
      'setup-link',
      handedOver({ baseUrl: 'https://slack.com', clientId: '1234567890.1234567890', name: 'Acme' }),
    );
    const form = page.getByRole('form', { name: 'Sign in with Slack' });
    await form.getByText('Set up from your team’s link for Acme.').waitFor();
    expect(await page.locator('#sign-in-host-name').count()).toBe(0);
    expect(problems).toEqual([]);
    await closeApp(page);
  });
});
