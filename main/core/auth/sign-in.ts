// Sign in with Slack (OAuth 2.0 authorization code with PKCE S256 through a loopback redirect,
// RFC 8252): a fresh state and verifier per attempt, the browser on the consent page, one
// callback, the code exchanged at oauth.v2.user.access, then auth.test for "@alice in Acme".
// Nothing is saved unless every step succeeded; then the tokens go to the keychain first and
// the workspace (new, named after the team, or the one being signed in again) to settings.
import { randomUUID } from 'node:crypto';
import { checkBaseUrl } from '../../portable/credentials';
import {
  looksLikeSlackClientId,
  SLACK_REDIRECT_PORT,
  SLACK_USER_SCOPES,
} from '../../portable/slack-sign-in';
import type { SignInRequest, SignInResult } from '../api';
import type { Workspace } from '../model';
import type { SecretStore } from '../secrets/secret-store';
import { KeychainError } from '../secrets/secret-store';
import { parseArgs } from '../settings/input-rules';
import type { SettingsService } from '../settings/settings-service';
import { authTest } from '../upload/auth-test';
import type { Transport } from '../upload/transport';
import {
  type CallbackOutcome,
  type LoopbackListener,
  openLoopback,
  PortInUseError,
} from './loopback';
import { authorizeUrl, exchangeCode, type IssuedTokens, revokeToken } from './oauth-client';
import { newPkcePair, newState } from './pkce';
import { signInMessages as say } from './sign-in-messages';
import { tokenStore } from './token-store';

export interface SignInDeps {
  settings: SettingsService;
  secrets: SecretStore;
  transport: Transport;
  openBrowser?: (url: string) => Promise<void>;
  /** The loopback port; the Slack app must list http://localhost:PORT/slack/callback. */
  port?: number;
  /** How long the browser has (default 5 minutes). */
  timeoutMs?: number;
  /** Signed in (or again): resume the workspace's waiting files, reload its lists. */
  onSignedIn(workspaceId: string): void;
}

const FIVE_MINUTES = 5 * 60_000;

type Waited = CallbackOutcome | { kind: 'timeout' } | { kind: 'cancelled' };

export function openSignIn(deps: SignInDeps) {
  const port = deps.port ?? SLACK_REDIRECT_PORT;
  const timeoutMs = deps.timeoutMs ?? FIVE_MINUTES;
  let cancelCurrent: (() => void) | undefined;

  function waitForBrowser(listener: LoopbackListener): Promise<Waited> {
    let timer: NodeJS.Timeout | undefined;
    return new Promise<Waited>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
      cancelCurrent = () => resolve({ kind: 'cancelled' });
      void listener.callback.then(resolve);
    }).finally(() => {
      clearTimeout(timer);
      cancelCurrent = undefined;
    });
  }

  async function signInWithSlack(request: SignInRequest): Promise<SignInResult> {
    const [checked] = parseArgs('signInWithSlack', [request]);
    const baseUrl = checked.baseUrl.trim().replace(/\/+$/, '');
    const clientId = checked.clientId.trim();
    const urlCheck = checkBaseUrl(baseUrl);
    if (!urlCheck.ok) return say.other(urlCheck.message);
    if (!looksLikeSlackClientId(clientId)) return say.invalidClientId(clientId);
    const existing = checked.workspaceId ? deps.settings.workspace(checked.workspaceId) : undefined;
    if (checked.workspaceId && !existing) return say.other('That workspace no longer exists.');
    // One sign-in at a time: the port is one. A new attempt ends the waiting one.
    cancelCurrent?.();

    const pkce = newPkcePair();
    const state = newState();
    let listener: LoopbackListener;
    try {
      listener = await openLoopback({ port, expectedState: state });
    } catch (error) {
      if (error instanceof PortInUseError) return say.portInUse(port);
      throw error;
    }
    const url = authorizeUrl(baseUrl, {
      clientId,
      scopes: SLACK_USER_SCOPES,
      redirectUri: listener.redirectUri,
      state,
      challenge: pkce.challenge,
      ...(existing?.teamId ? { team: existing.teamId } : {}),
    });
    const result = await attempt({
      baseUrl,
      clientId,
      existing,
      listener,
      url,
      verifier: pkce.verifier,
    });
    await listener.finish(
      result.ok ? { ok: true, message: '' } : { ok: false, message: result.message },
    );
    if (result.ok) deps.onSignedIn(result.workspaceId);
    return result;
  }

  async function attempt(a: {
    baseUrl: string;
    clientId: string;
    existing: Workspace | undefined;
    listener: LoopbackListener;
    url: string;
    verifier: string;
  }): Promise<SignInResult> {
    if (!deps.openBrowser) return say.noBrowser('this program has no browser to open');
    try {
      await deps.openBrowser(a.url);
    } catch (error) {
      return say.noBrowser(error instanceof Error ? error.message : String(error));
    }
    const waited = await waitForBrowser(a.listener);
    switch (waited.kind) {
      case 'timeout':
        return say.timeout(timeoutMs);
      case 'cancelled':
        return say.cancelled();
      case 'state_mismatch':
        return say.stateMismatch();
      case 'error':
        return waited.error === 'access_denied'
          ? say.accessDenied()
          : say.other(`Slack answered "${waited.error}" instead of signing in.`);
    }
    const exchanged = await exchangeCode(
      a.baseUrl,
      {
        clientId: a.clientId,
        code: waited.code,
        verifier: a.verifier,
        redirectUri: a.listener.redirectUri,
      },
      deps.transport,
    );
    if (!exchanged.ok) return exchangeFailure(exchanged.error, exchanged.detail, a.clientId);
    return finishSignIn(a.baseUrl, a.clientId, a.existing, exchanged.tokens);
  }

  function exchangeFailure(
    error: string,
    detail: string | undefined,
    clientId: string,
  ): SignInResult {
    if (error === 'unreachable') return say.unreachable(detail ?? 'no answer');
    if (error === 'invalid_client_id') return say.invalidClientId(clientId);
    if (error === 'bad_redirect_uri') return say.badRedirectUri(port);
    if (error === 'no_refresh_token') {
      // Slack gives rotating tokens to a loopback redirect only with "token rotation" on
      // (https://docs.slack.dev/changelog/2026/03/30/pkce); Trayshare's manifest turns it on.
      return say.other(
        "The Slack app gave a token that does not renew itself: its admin must turn on token rotation (Trayshare's manifest does).",
      );
    }
    return say.other(`Slack refused the sign-in (${error}).`);
  }

  async function finishSignIn(
    baseUrl: string,
    clientId: string,
    existing: Workspace | undefined,
    tokens: IssuedTokens,
  ): Promise<SignInResult> {
    const teamId = tokens.team?.id ?? '';
    if (existing?.teamId && teamId !== existing.teamId) {
      // Not kept, so not left valid at the service either.
      await revokeToken(baseUrl, tokens.accessToken, deps.transport);
      return say.wrongTeam(tokens.team?.name ?? teamId, existing.teamName ?? existing.name);
    }
    const who = await authTest(baseUrl, tokens.accessToken, deps.transport);
    if (!who.ok) {
      return who.reason.class === 'transient'
        ? say.unreachable(who.reason.message)
        : say.other(who.reason.message);
    }
    const teamName = who.team ?? tokens.team?.name ?? 'Slack';
    const userName = who.user ?? tokens.userId ?? 'you';
    const workspace = existing
      ? { id: existing.id, isNew: false }
      : { id: randomUUID(), isNew: true };
    const store = tokenStore(deps.secrets);
    const replaced =
      existing?.auth === 'slack' ? await store.accessToken(existing.id).catch(() => null) : null;
    try {
      await store.save(workspace.id, tokens);
    } catch (error) {
      await store.forgetBoth(workspace.id).catch(() => undefined);
      if (error instanceof KeychainError) return say.keychain(error.message);
      throw error;
    }
    try {
      deps.settings.recordSignIn(workspace, {
        baseUrl,
        clientId,
        teamId,
        teamName,
        userName,
        tokenExpiresAt: Date.now() + tokens.expiresIn * 1000,
      });
    } catch (error) {
      if (workspace.isNew) await store.forgetBoth(workspace.id).catch(() => undefined);
      return say.other(error instanceof Error ? error.message : String(error));
    }
    // The sign-in this one replaces ends at the service too, not only here.
    if (replaced) await revokeToken(baseUrl, replaced, deps.transport);
    return { ok: true, workspaceId: workspace.id, user: `@${userName}`, team: teamName };
  }

  return {
    signInWithSlack,
    cancelSignIn: async () => {
      cancelCurrent?.();
    },
  };
}
