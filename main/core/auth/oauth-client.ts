// Sign in with Slack's calls to the service: the authorize URL, oauth.v2.user.access (a code
// for tokens; a refresh token for new ones) and auth.revoke. Shapes from
// https://docs.slack.dev/reference/methods/oauth.v2.user.access (form-encoded, no
// client_secret for a PKCE app: https://docs.slack.dev/authentication/using-pkce) and, for a
// renewal's answer at the top level, node-slack-sdk's OAuthV2TokenRefreshResponse
// (packages/oauth/src/install-provider.ts). Never logs, and never puts a secret in a URL.
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
  const url = new URL(`${baseUrl.trim().replace(/\/+$/, '')}/oauth/v2_user/authorize`);
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

/** Reads the tokens from an answer: nested in authed_user (a code) or at the top (a renewal). */
function tokensOf(json: Record<string, unknown>): IssuedTokens | undefined {
  const user = (
    json.authed_user && typeof json.authed_user === 'object' ? json.authed_user : json
  ) as Record<string, unknown>;
  const accessToken = str(user.access_token);
  const refreshToken = str(user.refresh_token);
  const expiresIn = typeof user.expires_in === 'number' ? user.expires_in : undefined;
  if (!accessToken || !refreshToken || expiresIn === undefined) return undefined;
  const team = json.team as Record<string, unknown> | undefined;
  const teamId = str(team?.id);
  return {
    accessToken,
    refreshToken,
    expiresIn,
    ...(str(user.id) ? { userId: str(user.id) } : {}),
    ...(teamId
      ? { team: { id: teamId, ...(str(team?.name) ? { name: str(team?.name) } : {}) } }
      : {}),
  };
}

async function userAccess(
  baseUrl: string,
  form: Record<string, string>,
  transport: Transport,
): Promise<OAuthAnswer> {
  const answer = await post(transport, apiUrl(baseUrl, 'oauth.v2.user.access'), form);
  if ('unreachable' in answer)
    return { ok: false, error: 'unreachable', detail: answer.unreachable };
  const { json, status } = answer;
  if (json?.ok === true) {
    const tokens = tokensOf(json);
    // No refresh token means the app does not rotate tokens: not a PKCE app's answer.
    if (tokens) return { ok: true, tokens };
    return { ok: false, error: 'no_refresh_token' };
  }
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
  return userAccess(
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
  return userAccess(
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
