// Slack's two consent/exchange pairs, each answering as Slack documents it, and auth.revoke.
// The pairs must never be mixed: a code from one pair's consent page is refused by the other
// pair's method with oauth_authorization_url_mismatch (slack-ruby/slack-api-ref
// methods/oauth/oauth.v2.access.json and oauth.v2.user.access.json, both list it: "The OAuth
// flow was initiated on an incorrect version of the authorization url").
//
// - The PKCE pair (docs.slack.dev/authentication/using-pkce; docs.slack.dev/changelog/2026/03/30/pkce:
//   "exchange the code using the oauth.v2.access API method without a client secret"):
//   POST /api/oauth.v2.access, form-encoded (or client_id by HTTP Basic), client_id, code,
//   code_verifier, redirect_uri, grant_type, refresh_token. A code's answer nests the user's
//   token in `authed_user` with no top-level access_token when no bot scope was asked
//   (slack-api-ref oauth.v2.access.json, its second example for the rotating fields and its
//   third for a user-only install). A renewal (grant_type=refresh_token) answers at the top level
//   with token_type "user" (node-slack-sdk packages/oauth/src/install-provider.ts,
//   OAuthV2TokenRefreshResponse; python-slack-sdk slack_sdk/oauth/token_rotation/rotator.py reads
//   a user renewal's access_token at the top level too).
// - The user-only pair: POST /api/oauth.v2.user.access answers with the token at the top level,
//   `{"ok", "access_token", "token_type": "user", "authed_user": {"id", "scope"}, "team": {"id"}}`
//   (slack-api-ref oauth.v2.user.access.json, its example; its id_token belongs to OpenID scopes,
//   which nobody asks for here, so it is left out). Its example carries no refresh token, so none
//   is given, and a renewal there finds none.
// - Errors are the methods' own: invalid_client_id, invalid_code, invalid_code_verifier (a wrong
//   or missing verifier; slack-api-ref oauth.v2.access.json, 2026/06/22), bad_redirect_uri,
//   invalid_grant_type, invalid_refresh_token, oauth_authorization_url_mismatch.
// - auth.revoke answers {ok:true, revoked:true}; `test` revokes nothing (revoked:false)
//   (slack-api-ref methods/auth/auth.revoke.json).
import { type Args, readArgs, stringArg } from './api-args';
import { authenticate, finish, startFault } from './api-common';
import type { ServiceContext } from './context';
import { type Exchange, jsonAnswer, slackError } from './exchange';
import { type ConsentFlow, s256, type TokenPair } from './oauth-grants';

const APP_ID = 'A0TRAYSHARE';

type Method = 'oauth.v2.access' | 'oauth.v2.user.access';

/** The consent page each method's codes must come from. */
const FLOW_OF: Record<Method, ConsentFlow> = {
  'oauth.v2.access': 'v2',
  'oauth.v2.user.access': 'v2_user',
};

export function oauthV2Access(ctx: ServiceContext, ex: Exchange): Promise<void> {
  return oauthMethod(ctx, ex, 'oauth.v2.access');
}

export function oauthV2UserAccess(ctx: ServiceContext, ex: Exchange): Promise<void> {
  return oauthMethod(ctx, ex, 'oauth.v2.user.access');
}

async function oauthMethod(ctx: ServiceContext, ex: Exchange, method: Method): Promise<void> {
  const fault = await startFault(ctx, ex, method);
  if (fault === 'handled') return;
  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid')
    return finish(ctx, ex, fault, slackError(parsed.code), parsed.bodyRead);
  const clientId = stringArg(parsed.args, 'client_id') ?? basicClientId(ex) ?? '';
  return finish(ctx, ex, fault, answerFor(ctx, method, clientId, parsed.args), true);
}

/** client_id by HTTP Basic, as the method's docs prefer ("client_id:" with no secret). */
function basicClientId(ex: Exchange): string | undefined {
  const header = ex.req.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match) return undefined;
  return Buffer.from(match[1]!, 'base64').toString('utf8').split(':')[0] || undefined;
}

function answerFor(ctx: ServiceContext, method: Method, clientId: string, args: Args) {
  const grantType = stringArg(args, 'grant_type') ?? 'authorization_code';
  if (!ctx.config.oauth.apps.some((a) => a.clientId === clientId)) {
    return slackError('invalid_client_id');
  }
  if (grantType === 'refresh_token') {
    // Only the PKCE pair's tokens rotate (the user-only pair's answer carries no refresh token).
    if (method !== 'oauth.v2.access') return slackError('invalid_refresh_token');
    const rotated = ctx.oauth.rotate(stringArg(args, 'refresh_token') ?? '', clientId);
    if (typeof rotated === 'string') return slackError(rotated);
    ctx.log('oauth: tokens renewed');
    return jsonAnswer(renewalAnswer(rotated));
  }
  if (grantType !== 'authorization_code') return slackError('invalid_grant_type');
  const code = ctx.oauth.spendCode(stringArg(args, 'code') ?? '');
  if (!code || code.request.clientId !== clientId) return slackError('invalid_code');
  if (code.request.flow !== FLOW_OF[method]) return slackError('oauth_authorization_url_mismatch');
  if ((stringArg(args, 'redirect_uri') ?? '') !== code.request.redirectUri) {
    return slackError('bad_redirect_uri');
  }
  if (code.request.codeChallenge !== undefined) {
    const verifier = stringArg(args, 'code_verifier') ?? '';
    if (verifier) ctx.oauth.secrets.add(verifier);
    // RFC 7636 §4.6; the code is spent either way (RFC 6749 §4.1.2).
    if (s256(verifier) !== code.request.codeChallenge) return slackError('invalid_code_verifier');
  }
  const pair = ctx.oauth.startChain(code.signer, code.request.scopes, clientId);
  ctx.log('oauth: code exchanged');
  return jsonAnswer(method === 'oauth.v2.access' ? pkceCodeAnswer(pair) : userOnlyAnswer(pair));
}

/** oauth.v2.access for a code: the user's token in authed_user, nothing at the top level. */
function pkceCodeAnswer(pair: TokenPair) {
  return {
    ok: true,
    app_id: APP_ID,
    authed_user: {
      id: pair.signer.user,
      scope: pair.scopes.join(','),
      access_token: pair.accessToken,
      token_type: 'user',
      expires_in: pair.expiresIn,
      refresh_token: pair.refreshToken,
    },
    team: pair.signer.team,
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** oauth.v2.access for a refresh token: the new pair at the top level. */
function renewalAnswer(pair: TokenPair) {
  return {
    ok: true,
    app_id: APP_ID,
    scope: pair.scopes.join(','),
    token_type: 'user',
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    expires_in: pair.expiresIn,
    team: pair.signer.team,
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** oauth.v2.user.access for a code: the token at the top level, who in authed_user. */
function userOnlyAnswer(pair: TokenPair) {
  return {
    ok: true,
    access_token: pair.accessToken,
    token_type: 'user',
    authed_user: { id: pair.signer.user, scope: pair.scopes.join(',') },
    team: { id: pair.signer.team.id },
  };
}

export async function authRevoke(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'auth.revoke');
  if (fault === 'handled') return;
  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return finish(ctx, ex, fault, auth.answer, false);
  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  const test = parsed.kind === 'ok' && ['1', 'true'].includes(stringArg(parsed.args, 'test') ?? '');
  if (!test) {
    if (!ctx.oauth.revoke(auth.token)) ctx.revokedTokens.add(auth.token);
    ctx.log('auth.revoke: token revoked');
  }
  return finish(ctx, ex, fault, jsonAnswer({ ok: true, revoked: !test }), true);
}
