// The end of a sign-in whose code was exchanged: the team checked (signing a workspace in
// again must pick the same one) and auth.test for "@alice in Acme" (checkSignIn); then, once it
// may be kept (sign-in.ts asks the person first when it must), the tokens to the keychain and
// the workspace to settings (keepSignIn). Whatever fails, nothing is half-kept: a new workspace
// leaves no token behind, and tokens that are not kept are revoked at the service.

import { randomUUID } from 'node:crypto';
import { errorMessage } from '../../portable/error-message';
import type { SignInEnd } from '../api';
import type { Workspace } from '../model';
import { KeychainError, type SecretStore } from '../secrets/secret-store';
import { workspaceSecrets } from '../secrets/workspace-secrets';
import { SettingsError } from '../settings/settings-error';
import type { SettingsService } from '../settings/settings-service';
import { authTest } from '../upload/auth-test';
import type { Transport } from '../upload/transport';
import { type IssuedTokens, revokeToken } from './oauth-client';
import { signInMessages as say } from './sign-in-messages';
import { CANCELLED, unlessCancelled } from './unless-cancelled';

export interface KeepDeps {
  settings: SettingsService;
  secrets: SecretStore;
  transport: Transport;
}

/** What a failed code exchange says. */
export function exchangeFailure(
  error: string,
  detail: string | undefined,
  clientId: string,
  redirectUri: string,
): SignInEnd {
  if (error === 'unreachable') return say.unreachable(detail ?? 'no answer');
  if (error === 'invalid_client_id') return say.invalidClientId(clientId);
  if (error === 'bad_redirect_uri') return say.badRedirectUri(redirectUri);
  if (error === 'no_user_token') {
    return say.other(
      'Slack answered without a token for you, so Trayshare cannot post as you: check that the Slack app asks for user scopes only.',
    );
  }
  if (error === 'no_refresh_token') {
    // Slack gives rotating tokens to a loopback redirect only with "token rotation" on
    // (https://docs.slack.dev/changelog/2026/03/30/pkce); Trayshare's manifest turns it on.
    return say.other(
      "The Slack app gave a token that does not renew itself: its admin must turn on token rotation (Trayshare's manifest does).",
    );
  }
  if (error === 'oauth_authorization_url_mismatch') {
    // Slack's own words: the flow must begin at /oauth/v2/authorize (oauth.v2.access's reference).
    return say.other(
      'Slack refused the sign-in because it began at another sign-in page than the one its answer belongs to (oauth_authorization_url_mismatch).',
    );
  }
  return say.other(`Slack refused the sign-in (${error}).`);
}

/** Who signed in, by auth.test's names; the team's ID as the token's answer gave it. */
export interface SignedInAs {
  teamId: string;
  teamName: string;
  userName: string;
}

/** Ends the sign-in at the service: tokens that are not kept must not work anywhere. */
export function dropTokens(deps: KeepDeps, baseUrl: string, tokens: IssuedTokens) {
  return revokeToken(baseUrl, tokens.accessToken, deps.transport);
}

/** The team checked and auth.test asked; on any failure the tokens are already revoked. */
export async function checkSignIn(
  deps: KeepDeps,
  a: {
    baseUrl: string;
    existing: Workspace | undefined;
    tokens: IssuedTokens;
    /** Cancel still counts while auth.test answers. */
    signal: AbortSignal;
  },
): Promise<SignInEnd | SignedInAs> {
  const { baseUrl, existing, tokens } = a;
  const drop = () => dropTokens(deps, baseUrl, tokens);
  const teamId = tokens.team?.id ?? '';
  if (existing?.teamId && teamId !== existing.teamId) {
    await drop();
    return say.wrongTeam(tokens.team?.name ?? teamId, existing.teamName ?? existing.name);
  }
  const who = await unlessCancelled(
    a.signal,
    authTest(baseUrl, tokens.accessToken, deps.transport),
  );
  if (who === CANCELLED) {
    // Cancelled while auth.test answered: nothing was kept, and the tokens end at the service.
    void drop();
    return say.cancelled();
  }
  if (!who.ok) {
    await drop();
    return who.reason.class === 'transient'
      ? say.unreachable(who.reason.message)
      : say.other(who.reason.message);
  }
  return {
    teamId,
    teamName: who.team ?? tokens.team?.name ?? 'Slack',
    userName: who.user ?? tokens.userId ?? 'you',
  };
}

/** The tokens to the keychain and the workspace to settings, for a sign-in checkSignIn passed. */
export async function keepSignIn(
  deps: KeepDeps,
  a: {
    baseUrl: string;
    clientId: string;
    existing: Workspace | undefined;
    tokens: IssuedTokens;
    who: SignedInAs;
  },
): Promise<SignInEnd> {
  const { baseUrl, existing, tokens } = a;
  const { teamId, teamName, userName } = a.who;
  const drop = () => dropTokens(deps, baseUrl, tokens);
  const workspace = existing
    ? { id: existing.id, isNew: false }
    : { id: randomUUID(), isNew: true };
  const replaced =
    existing?.auth === 'slack'
      ? await workspaceSecrets(deps.secrets)
          .accessToken(existing)
          .catch(() => null)
      : null;
  try {
    // Tokens and settings in one step, which leaves the keychain as it was if any part fails
    // (a workspace signed in again keeps what it had: its old sign-in still works).
    await deps.settings.recordSignIn(
      workspace,
      {
        baseUrl,
        clientId: a.clientId,
        teamId,
        teamName,
        userName,
        tokenExpiresAt: Date.now() + tokens.expiresIn * 1000,
      },
      tokens,
    );
  } catch (error) {
    await drop();
    if (error instanceof KeychainError) return say.keychain(error.message);
    if (error instanceof SettingsError && error.code === 'workspace_moved') {
      return say.moved(error.message);
    }
    return say.other(errorMessage(error));
  }
  // The sign-in this one replaces ends at the service too, not only here.
  if (replaced) await revokeToken(baseUrl, replaced, deps.transport);
  return { ok: true, workspaceId: workspace.id, user: `@${userName}`, team: teamName };
}
