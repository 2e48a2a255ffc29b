// POST /api/oauth.v2.user.access (exchange a code, or renew with a refresh token) and
// POST /api/auth.revoke, as Slack documents them:
// - https://docs.slack.dev/reference/methods/oauth.v2.user.access: form-encoded, client_id,
//   code, code_verifier, redirect_uri, grant_type, refresh_token; errors invalid_client_id,
//   invalid_code, bad_redirect_uri, invalid_grant_type, invalid_refresh_token, no_user_scopes.
// - The code's answer nests the user's token under `authed_user`; a renewal answers at the top
//   level with token_type "user" (node-slack-sdk packages/oauth/src/install-provider.ts,
//   OAuthV2TokenRefreshResponse).
// - auth.revoke answers {ok:true, revoked:true}; `test` revokes nothing (revoked:false)
//   (node-slack-sdk packages/web-api/src/types/request/auth.ts).
import { type Args, readArgs, stringArg } from './api-args';
import { authenticate, finish, startFault } from './api-common';
import type { ServiceContext } from './context';
import { type Exchange, jsonAnswer, slackError } from './exchange';
import { s256, type TokenPair } from './oauth-grants';

const APP_ID = 'A0TRAYSHARE';

export async function oauthUserAccess(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'oauth.v2.user.access');
  if (fault === 'handled') return;
  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid')
    return finish(ctx, ex, fault, slackError(parsed.code), parsed.bodyRead);
  return finish(ctx, ex, fault, answerFor(ctx, parsed.args), true);
}

function answerFor(ctx: ServiceContext, args: Args) {
  const grantType = stringArg(args, 'grant_type') ?? 'authorization_code';
  const clientId = stringArg(args, 'client_id') ?? '';
  if (!ctx.config.oauth.apps.some((a) => a.clientId === clientId)) {
    return slackError('invalid_client_id');
  }
  if (grantType === 'refresh_token') {
    const rotated = ctx.oauth.rotate(stringArg(args, 'refresh_token') ?? '', clientId);
    if (typeof rotated === 'string') return slackError(rotated);
    ctx.log('oauth: tokens renewed');
    return jsonAnswer({
      ok: true,
      app_id: APP_ID,
      scope: rotated.scopes.join(','),
      token_type: 'user',
      access_token: rotated.accessToken,
      refresh_token: rotated.refreshToken,
      expires_in: rotated.expiresIn,
      team: rotated.signer.team,
      enterprise: null,
      is_enterprise_install: false,
    });
  }
  if (grantType !== 'authorization_code') return slackError('invalid_grant_type');
  const code = ctx.oauth.spendCode(stringArg(args, 'code') ?? '');
  if (!code || code.request.clientId !== clientId) return slackError('invalid_code');
  if ((stringArg(args, 'redirect_uri') ?? '') !== code.request.redirectUri) {
    return slackError('bad_redirect_uri');
  }
  if (code.request.codeChallenge !== undefined) {
    const verifier = stringArg(args, 'code_verifier') ?? '';
    if (verifier) ctx.oauth.secrets.add(verifier);
    // RFC 7636 §4.6; Slack names no error code for a wrong verifier: the code is refused.
    if (s256(verifier) !== code.request.codeChallenge) return slackError('invalid_code');
  }
  const pair = ctx.oauth.startChain(code.signer, code.request.scopes, clientId);
  ctx.log('oauth: code exchanged');
  return jsonAnswer(codeAnswer(pair));
}

function codeAnswer(pair: TokenPair) {
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
