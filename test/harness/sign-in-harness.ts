// A harness set up for Sign in with Slack in Chromium: its reference service has one Slack app
// whose redirect URL is a loopback port free right now (tests run side by side, so not the
// manifest's fixed ports), and one person who can approve on the consent page. Lifetimes are
// Slack's (defaultOAuthConfig); a test that needs others sets them on harness.reference.config.
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { freePort } from '../auth/sign-in-helpers';
import { defaultOAuthConfig, type OAuthSigner } from '../service/oauth-config';
import { type Harness, startHarness } from './server';

export async function startSignInHarness(opts: {
  /** The Slack app's client ID, which the reference service knows. */
  clientId: string;
  signer: OAuthSigner;
  /** The build's default client ID (issue 36's two first-run builds); none when left out. */
  slackClientId?: string;
}): Promise<Harness> {
  const port = await freePort();
  return startHarness({
    signInPort: port,
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
