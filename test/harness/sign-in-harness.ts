// A harness set up for Sign in with Slack in Chromium: its reference service has one Slack app
// whose redirect URL is a loopback port free right now (tests run side by side, so not the
// manifest's fixed ports), and one person who can approve on the consent page. Lifetimes are
// Slack's (defaultOAuthConfig); a test that needs others sets them on harness.reference.config.
import type { Browser } from 'playwright-core';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { freePort, signInAndKeep } from '../auth/sign-in-helpers';
import { defaultOAuthConfig, type OAuthSigner } from '../reference-service/oauth-config';
import { type Harness, startHarness } from './server';

export async function startSignInHarness(opts: {
  /** The Slack app's client ID, which the reference service knows. */
  clientId: string;
  signer: OAuthSigner;
  /** The build's default client ID (issue 36's two first-run builds); none when left out. */
  slackClientId?: string;
  /** The reference service's clock (HarnessOptions.serviceNow). */
  serviceNow?: () => number;
}): Promise<Harness> {
  const port = await freePort();
  return startHarness({
    signInPort: port,
    ...(opts.serviceNow ? { serviceNow: opts.serviceNow } : {}),
    ...(opts.slackClientId === undefined ? {} : { slackClientId: opts.slackClientId }),
    serviceConfig: {
      oauth: {
        ...defaultOAuthConfig,
        apps: [{ clientId: opts.clientId, redirectUrls: [slackRedirectUri(port)] }],
        signers: [opts.signer],
      },
    },
  });
}

/**
 * A person signs in through the consent page in a real tab: the app opens the page, they press
 * Allow, and keep it when asked who signed in. Resolves to the workspace's ID once the app has
 * kept the tokens.
 */
export async function signInThroughConsentPage(
  harness: Harness,
  browser: Browser,
  clientId: string,
): Promise<string> {
  harness.setOpenBrowser(async (url) => {
    void (async () => {
      const tab = await browser.newPage();
      await tab.goto(url);
      await tab.getByRole('button', { name: 'Allow' }).click();
      await tab.waitForLoadState('load');
      await tab.close();
    })();
  });
  const result = await signInAndKeep(harness.app, { baseUrl: harness.reference.url, clientId });
  harness.setOpenBrowser(null);
  if (!result.ok) throw new Error(result.message);
  return result.workspaceId;
}
