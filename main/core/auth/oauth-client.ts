// Sign in with Slack's calls to the service, Slack's PKCE pair exactly
// (https://docs.slack.dev/authentication/using-pkce; service contract, "Sign-in"): consent at
// /oauth/v2/authorize with `user_scope` and no `scope`, then oauth.v2.access for the code and,
// later, for each renewal (form-encoded, no client_secret: "exchange the code using the
// oauth.v2.access API method without a client secret", docs.slack.dev/changelog/2026/03/30/pkce).
// Never the user-only pair (/oauth/v2_user/authorize, oauth.v2.user.access): Slack refuses a
// flow that mixes the two with oauth_authorization_url_mismatch. And auth.revoke to sign out.
// Never logs, and never puts a secret in a URL.
//
// Where the answer holds the token: a code's answer nests the user's token in `authed_user`
// (slack-ruby/slack-api-ref methods/oauth/oauth.v2.access.json, its second and third examples;
// node-slack-sdk packages/oauth/src/install-provider.ts reads v2Resp.authed_user.access_token);
// a renewal answers at the top level (node-slack-sdk install-provider.ts,
// OAuthV2TokenRefreshResponse; python-slack-sdk slack_sdk/oauth/token_rotation/rotator.py). So
// each field is read from `authed_user` first and from the top level second.
import { apiUrl } from '../../portable/credentials';
import { type Transport, TransportError } from '../upload/transport';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lasts. */
  expiresIn: number;
  userId?: string;
  team?: { id: string; name?: string };
}

export type OAuthAnswer =
  | { ok: true; tokens: IssuedTokens }
  /** `error` is Slack's code, or `unreachable` when no answer came. */
  | { ok: false; error: string; detail?: string };

const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;

export function authorizeUrl(
  baseUrl: string,
  params: {
    clientId: string;
    scopes: readonly string[];
    redirectUri: string;
    state: string;
    challenge: string;
    team?: string;
  },
): string {
  const url = new URL(`${baseUrl.trim().replace(/\/+$/, '')}/oauth/v2/authorize`);
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('user_scope', params.scopes.join(','));
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', params.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (params.team) url.searchParams.set('team', params.team);
  return url.href;
}

async function post(
  transport: Transport,
  url: string,
  form: Record<string, string>,
  token?: string,
): Promise<
  { status: number; json: Record<string, unknown> | undefined } | { unreachable: string }
> {
  const body = Buffer.from(new URLSearchParams(form).toString(), 'utf8');
  try {
    const res = await transport.request({
      url,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: (async function* () {
        yield body;
      })(),
      contentLength: body.length,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
    });
    let json: Record<string, unknown> | undefined;
    try {
      const value: unknown = JSON.parse(res.body);
      if (value && typeof value === 'object') json = value as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  } catch (error) {
    if (error instanceof TransportError) return { unreachable: error.message };
    throw error;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type Read =
  | { ok: true; tokens: IssuedTokens }
  /** No user token at all, or one that does not renew itself. */
  | { ok: false; error: 'no_user_token' | 'no_refresh_token' };

/**
 * Each token field from `authed_user` first, then from the top level. The top level is never
 * read when it holds a bot's token (token_type "bot"): that would post as the app, not the
 * person. (No bot scope is ever asked, so Slack gives none; this is a guard.)
 */
function tokensOf(json: Record<string, unknown>): Read {
  const nested = (
    json.authed_user && typeof json.authed_user === 'object' ? json.authed_user : {}
  ) as Record<string, unknown>;
  const top = json.token_type === 'bot' ? {} : json;
  const field = (name: string): unknown => nested[name] ?? top[name];
  const accessToken = str(field('access_token'));
  const refreshToken = str(field('refresh_token'));
  const expiresIn = field('expires_in');
  if (!accessToken) return { ok: false, error: 'no_user_token' };
  // No refresh token means the app does not rotate tokens (its "token rotation" setting is off).
  if (!refreshToken || typeof expiresIn !== 'number')
    return { ok: false, error: 'no_refresh_token' };
  const team = json.team as Record<string, unknown> | undefined;
  const teamId = str(team?.id);
  const userId = str(nested.id);
  return {
    ok: true,
    tokens: {
      accessToken,
      refreshToken,
      expiresIn,
      ...(userId ? { userId } : {}),
      ...(teamId
        ? { team: { id: teamId, ...(str(team?.name) ? { name: str(team?.name) } : {}) } }
        : {}),
    },
  };
}

async function v2Access(
  baseUrl: string,
  form: Record<string, string>,
  transport: Transport,
): Promise<OAuthAnswer> {
  const answer = await post(transport, apiUrl(baseUrl, 'oauth.v2.access'), form);
  if ('unreachable' in answer)
    return { ok: false, error: 'unreachable', detail: answer.unreachable };
  const { json, status } = answer;
  if (json?.ok === true) return tokensOf(json);
  if (json?.ok === false && typeof json.error === 'string') return { ok: false, error: json.error };
  return {
    ok: false,
    error: status >= 500 || status === 429 ? 'unreachable' : `http_${status}`,
    detail: `HTTP ${status}`,
  };
}

export function exchangeCode(
  baseUrl: string,
  args: { clientId: string; code: string; verifier: string; redirectUri: string },
  transport: Transport,
): Promise<OAuthAnswer> {
  return v2Access(
    baseUrl,
    {
      client_id: args.clientId,
      code: args.code,
      code_verifier: args.verifier,
      redirect_uri: args.redirectUri,
      grant_type: 'authorization_code',
    },
    transport,
  );
}

export function renewTokens(
  baseUrl: string,
  args: { clientId: string; refreshToken: string },
  transport: Transport,
): Promise<OAuthAnswer> {
  return v2Access(
    baseUrl,
    { client_id: args.clientId, grant_type: 'refresh_token', refresh_token: args.refreshToken },
    transport,
  );
}

/** auth.revoke: true when the service says the token is gone (or was already refused). */
export async function revokeToken(
  baseUrl: string,
  token: string,
  transport: Transport,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const answer = await post(transport, apiUrl(baseUrl, 'auth.revoke'), {}, token);
  if ('unreachable' in answer) return { ok: false, error: 'unreachable' };
  const { json } = answer;
  if (json?.ok === true) return { ok: true };
  const error = typeof json?.error === 'string' ? json.error : `http_${answer.status}`;
  // Nothing left to revoke: the token is already of no use to anyone. (token_expired is not
  // that: the sign-in's refresh token still works, so the caller renews and revokes again.)
  if (['invalid_auth', 'token_revoked', 'account_inactive'].includes(error)) return { ok: true };
  return { ok: false, error };
}
