// The reference service's Sign in with Slack settings: the Slack apps that may ask (client IDs
// with PKCE on, and their redirect URLs), the people who can approve on the consent page, and
// the lifetimes Slack documents. Slack's facts behind each default are cited where they are set.
import { z } from 'zod';
import { slackRedirectUris } from '../../main/portable/slack-sign-in';

interface OAuthApp {
  /** e.g. 1111111111.2222222222 */
  clientId: string;
  /** The app's configured redirect URLs, matched exactly (port included). */
  redirectUrls: string[];
}

/** Someone who can approve on the consent page, and what their token may then do. */
export interface OAuthSigner {
  user: string;
  /** The handle auth.test reports, e.g. "alice". */
  name: string;
  team: { id: string; name: string };
  /** Channels the token may post to. */
  channels: string[];
}

export interface OAuthConfig {
  apps: OAuthApp[];
  /** The first one of the requested team (or the first) is preselected on the consent page. */
  signers: OAuthSigner[];
  /** Slack: 12 hours (https://docs.slack.dev/authentication/using-token-rotation). */
  accessTokenLifetimeSeconds: number;
  /** Slack: 30 days for PKCE apps (https://docs.slack.dev/authentication/using-pkce). */
  refreshTokenLifetimeSeconds: number;
  /** Slack's authorization codes expire after 10 minutes (service contract, "Sign-in"). */
  codeLifetimeSeconds: number;
  /**
   * How long a refresh token that was used already is still accepted, answering with the same
   * new pair again. Slack's docs say the used refresh token "is then revoked"
   * (https://docs.slack.dev/authentication/using-token-rotation) and name no grace period, so
   * the default is 0: a reused refresh token gets invalid_refresh_token at once.
   */
  refreshReuseSeconds: number;
}

export const DEFAULT_CLIENT_ID = '1111111111.2222222222';

export const defaultOAuthConfig: OAuthConfig = {
  // The manifest's redirect URLs (build/slack-app-manifest.json).
  apps: [{ clientId: DEFAULT_CLIENT_ID, redirectUrls: slackRedirectUris() }],
  signers: [
    {
      user: 'U0ALICE',
      name: 'alice',
      team: { id: 'T0REFERENCE', name: 'Trayshare Reference' },
      channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM', 'C0DESIGNX'],
    },
    {
      user: 'U0BOB',
      name: 'bob.builder',
      team: { id: 'T0ELSEWHERE', name: 'Elsewhere Inc' },
      channels: ['C0RANDOM'],
    },
  ],
  accessTokenLifetimeSeconds: 43_200,
  refreshTokenLifetimeSeconds: 30 * 24 * 3600,
  codeLifetimeSeconds: 600,
  refreshReuseSeconds: 0,
};

export const oauthConfigSchema = z
  .object({
    apps: z.array(
      z.object({ clientId: z.string().min(1), redirectUrls: z.array(z.string().min(1)) }).strict(),
    ),
    signers: z
      .array(
        z
          .object({
            user: z.string().regex(/^[UW][A-Z0-9]+$/),
            name: z.string().min(1),
            team: z.object({ id: z.string().regex(/^T[A-Z0-9]+$/), name: z.string().min(1) }),
            channels: z.array(z.string().min(1)),
          })
          .strict(),
      )
      .min(1),
    accessTokenLifetimeSeconds: z.number().positive(),
    refreshTokenLifetimeSeconds: z.number().positive(),
    codeLifetimeSeconds: z.number().positive(),
    refreshReuseSeconds: z.number().nonnegative(),
  })
  .partial()
  .strict();

export function resolveOAuthConfig(
  given: z.infer<typeof oauthConfigSchema> | undefined,
  base: OAuthConfig,
): OAuthConfig {
  return structuredClone({ ...base, ...(given ?? {}) }) as OAuthConfig;
}
