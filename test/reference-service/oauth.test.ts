// Sign in with Slack at the reference service, over real HTTP, against Slack's docs:
// https://docs.slack.dev/authentication/using-pkce, .../using-token-rotation, and the methods'
// reference (slack-ruby/slack-api-ref methods/oauth/oauth.v2.access.json,
// oauth.v2.user.access.json, methods/auth/auth.revoke.json). The PKCE pair (/oauth/v2/authorize,
// oauth.v2.access) is the one Trayshare uses; the user-only pair (/oauth/v2_user/authorize,
// oauth.v2.user.access) answers as its own reference shows, and the two never mix.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { consent } from './consent-client';
import { DEFAULT_CLIENT_ID } from './oauth-config';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;
let clock = Date.now();

async function start(oauth: Partial<ServiceConfig['oauth']> = {}) {
  service = await startReferenceService({
    dataDir,
    now: () => clock,
    config: { oauth: oauth as ServiceConfig['oauth'] },
  });
}

beforeEach(async () => {
  clock = Date.now();
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-oauth-'));
});
afterEach(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const redirectUri = slackRedirectUri();
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

function authorizeUrl(params: Record<string, string> = {}, path = '/oauth/v2/authorize'): string {
  const url = new URL(path, service.url);
  const all = {
    client_id: DEFAULT_CLIENT_ID,
    user_scope: 'files:write,channels:read',
    redirect_uri: redirectUri,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url.href;
}

async function call(method: string, form: Record<string, string>, token?: string) {
  const res = await fetch(`${service.url}/api/${method}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the tests
  return (await res.json()) as Record<string, any>;
}

async function codeFor(
  params: Record<string, string> = {},
  as?: string,
  path?: string,
): Promise<string> {
  const outcome = await consent(authorizeUrl(params, path), {
    followRedirect: false,
    ...(as ? { as } : {}),
  });
  const back = new URL(outcome.redirectedTo!);
  expect(back.searchParams.get('state')).toBe(params.state ?? 'state-1');
  return back.searchParams.get('code')!;
}

const exchange = (code: string, extra: Record<string, string> = {}, method = 'oauth.v2.access') =>
  call(method, {
    client_id: DEFAULT_CLIENT_ID,
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    grant_type: 'authorization_code',
    ...extra,
  });

const renew = (refreshToken: string) =>
  call('oauth.v2.access', {
    client_id: DEFAULT_CLIENT_ID,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });

describe('consent page', () => {
  it('lists the requested user scopes and the team, with Allow and Deny', async () => {
    await start();
    const { page } = await consent(authorizeUrl(), { followRedirect: false });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<li>files:write</li>');
    expect(page.html).toContain('<li>channels:read</li>');
    expect(page.html).toContain('Trayshare Reference');
    expect(page.html).toMatch(/value="deny">Deny/);
    expect(page.html).toMatch(/value="approve">Allow/);
  });

  it('preselects the team asked for with `team`', async () => {
    await start();
    const { page } = await consent(authorizeUrl({ team: 'T0ELSEWHERE' }), {
      followRedirect: false,
    });
    expect(page.html).toMatch(/<option value="U0BOB" selected>/);
  });

  it('sends Deny back as error=access_denied with the state', async () => {
    await start();
    const { redirectedTo } = await consent(authorizeUrl(), {
      decision: 'deny',
      followRedirect: false,
    });
    const back = new URL(redirectedTo!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-1');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it.each([
    [{ client_id: '9999999999.9999999999' }, 'invalid_client_id'],
    [{ redirect_uri: 'http://localhost:1/slack/callback' }, 'bad_redirect_uri'],
    [{ user_scope: '' }, 'no_user_scopes'],
    [{ scope: 'chat:write' }, 'invalid_scope'],
  ])('shows %j as an error page, never redirecting (%s)', async (params, error) => {
    await start();
    const { page, redirectedTo } = await consent(authorizeUrl(params));
    expect(page.status).toBe(400);
    expect(page.html).toContain(`data-error="${error}"`);
    expect(redirectedTo).toBeUndefined();
  });
});

describe('oauth.v2.access (the PKCE pair)', () => {
  it('answers a code exactly as slack-api-ref shows a user-only install: the token in authed_user, none at the top level', async () => {
    await start();
    const answer = await exchange(await codeFor());
    // oauth.v2.access.json's third example (a user-only install), with the rotating fields of its
    // second (expires_in, refresh_token in authed_user).
    expect(Object.keys(answer).sort()).toEqual(
      ['app_id', 'authed_user', 'enterprise', 'is_enterprise_install', 'ok', 'team'].sort(),
    );
    expect(Object.keys(answer.authed_user).sort()).toEqual(
      ['access_token', 'expires_in', 'id', 'refresh_token', 'scope', 'token_type'].sort(),
    );
    expect(answer.authed_user.access_token).toMatch(/^xoxe\.xoxp-/);
    expect(answer.authed_user.refresh_token).toMatch(/^xoxe-1-/);
    expect(answer).not.toHaveProperty('access_token');
  });

  it('answers a renewal exactly as node-slack-sdk reads it: the new pair at the top level', async () => {
    await start();
    const first = (await exchange(await codeFor())).authed_user;
    const renewed = await renew(first.refresh_token);
    // node-slack-sdk's install-provider.ts, OAuthV2TokenRefreshResponse (bot_user_id only for a bot).
    expect(Object.keys(renewed).sort()).toEqual(
      [
        'access_token',
        'app_id',
        'enterprise',
        'expires_in',
        'is_enterprise_install',
        'ok',
        'refresh_token',
        'scope',
        'team',
        'token_type',
      ].sort(),
    );
    expect(renewed).toMatchObject({ token_type: 'user', team: { id: 'T0REFERENCE' } });
    expect(renewed).not.toHaveProperty('authed_user');
  });

  it('takes client_id by HTTP Basic too, with no secret', async () => {
    await start();
    const code = await codeFor();
    const res = await fetch(`${service.url}/api/oauth.v2.access`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:`).toString('base64')}`,
      },
      body: new URLSearchParams({ code, code_verifier: verifier, redirect_uri: redirectUri }),
    });
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });

  it('exchanges a code with its verifier for a user token that works, in the documented shape', async () => {
    await start();
    const answer = await exchange(await codeFor());
    expect(answer).toMatchObject({
      ok: true,
      authed_user: {
        id: 'U0ALICE',
        token_type: 'user',
        expires_in: 43_200,
        scope: 'files:write,channels:read',
      },
      team: { id: 'T0REFERENCE', name: 'Trayshare Reference' },
      enterprise: null,
    });
    const who = await call('auth.test', {}, answer.authed_user.access_token);
    expect(who).toMatchObject({
      ok: true,
      user: 'alice',
      team: 'Trayshare Reference',
      user_id: 'U0ALICE',
    });
  });

  it('takes a code once only', async () => {
    await start();
    const code = await codeFor();
    expect((await exchange(code)).ok).toBe(true);
    expect(await exchange(code)).toEqual({ ok: false, error: 'invalid_code' });
  });

  it('refuses a code after 10 minutes', async () => {
    await start();
    const code = await codeFor();
    clock += 600_001;
    expect(await exchange(code)).toEqual({ ok: false, error: 'invalid_code' });
  });

  it('refuses a wrong verifier (PKCE S256) with invalid_code_verifier, and the code is spent', async () => {
    await start();
    const code = await codeFor();
    // The error slack-api-ref's oauth.v2.access.json lists since 2026/06/22.
    expect(await exchange(code, { code_verifier: 'x'.repeat(43) })).toEqual({
      ok: false,
      error: 'invalid_code_verifier',
    });
    expect(await exchange(code)).toEqual({ ok: false, error: 'invalid_code' });
  });

  it.each([
    [{ redirect_uri: 'http://localhost:2/slack/callback' }, 'bad_redirect_uri'],
    [{ client_id: '9999999999.9999999999' }, 'invalid_client_id'],
    [{ grant_type: 'password' }, 'invalid_grant_type'],
  ])('refuses %j with %s', async (extra, error) => {
    await start();
    expect(await exchange(await codeFor(), extra)).toEqual({ ok: false, error });
  });

  it('renews with the refresh token at the top level of the answer; the old refresh token is spent', async () => {
    await start();
    const first = (await exchange(await codeFor())).authed_user;
    const renewed = await renew(first.refresh_token);
    expect(renewed).toMatchObject({
      ok: true,
      token_type: 'user',
      expires_in: 43_200,
      team: { id: 'T0REFERENCE' },
    });
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(renewed.refresh_token).not.toBe(first.refresh_token);
    expect(service.refreshStatus(first.refresh_token)).toBe('used');
    expect(service.refreshStatus(renewed.refresh_token)).toBe('current');
    expect(await renew(first.refresh_token)).toEqual({ ok: false, error: 'invalid_refresh_token' });
    expect((await call('auth.test', {}, renewed.access_token)).ok).toBe(true);
  });

  it('answers a reused refresh token with the same pair within a configured grace period', async () => {
    await start({ refreshReuseSeconds: 60 });
    const first = (await exchange(await codeFor())).authed_user;
    const a = await renew(first.refresh_token);
    const b = await renew(first.refresh_token);
    expect(b.access_token).toBe(a.access_token);
    expect(b.refresh_token).toBe(a.refresh_token);
    clock += 61_000;
    expect(await renew(first.refresh_token)).toEqual({ ok: false, error: 'invalid_refresh_token' });
  });

  it('refuses a refresh token after its 30 days', async () => {
    await start();
    const first = (await exchange(await codeFor())).authed_user;
    clock += 30 * 24 * 3600 * 1000 + 1;
    expect(await renew(first.refresh_token)).toEqual({ ok: false, error: 'invalid_refresh_token' });
  });
});

describe('the two pairs never mix', () => {
  it('a code from the user-only consent page is refused by oauth.v2.access: oauth_authorization_url_mismatch', async () => {
    await start();
    const code = await codeFor(
      { scope: 'files:write', user_scope: '' },
      undefined,
      '/oauth/v2_user/authorize',
    );
    expect(await exchange(code)).toEqual({ ok: false, error: 'oauth_authorization_url_mismatch' });
  });

  it('a code from /oauth/v2/authorize is refused by oauth.v2.user.access: oauth_authorization_url_mismatch', async () => {
    await start();
    const code = await codeFor();
    expect(await exchange(code, {}, 'oauth.v2.user.access')).toEqual({
      ok: false,
      error: 'oauth_authorization_url_mismatch',
    });
  });

  it('the user-only pair answers as slack-api-ref shows it: the token at the top level', async () => {
    await start();
    const code = await codeFor(
      { scope: 'files:write', user_scope: '' },
      undefined,
      '/oauth/v2_user/authorize',
    );
    const answer = await exchange(code, {}, 'oauth.v2.user.access');
    // oauth.v2.user.access.json's example, without the OpenID id_token nobody asked for.
    expect(answer).toEqual({
      ok: true,
      access_token: expect.stringMatching(/^xoxe\.xoxp-/),
      token_type: 'user',
      authed_user: { id: 'U0ALICE', scope: 'files:write' },
      team: { id: 'T0REFERENCE' },
    });
    expect((await call('auth.test', {}, answer.access_token)).ok).toBe(true);
  });

  it('the user-only consent page takes its scopes in `scope`', async () => {
    await start();
    const { page } = await consent(authorizeUrl({}, '/oauth/v2_user/authorize'));
    expect(page.html).toContain('data-error="no_scopes"');
  });
});

describe('expiry and revocation', () => {
  it('refuses an expired access token with token_expired on every method', async () => {
    await start({ accessTokenLifetimeSeconds: 60 });
    const token = (await exchange(await codeFor())).authed_user.access_token;
    clock += 60_001;
    for (const method of [
      'auth.test',
      'conversations.list',
      'users.list',
      'files.getUploadURLExternal',
      'files.upload',
    ]) {
      expect(
        (await call(method, { filename: 'a.txt', length: '1', channels: 'C0GENERAL' }, token))
          .error,
        method,
      ).toBe('token_expired');
    }
  });

  it('auth.revoke answers revoked:true, ends the token and its refresh token; test:true revokes nothing', async () => {
    await start();
    const user = (await exchange(await codeFor())).authed_user;
    expect(await call('auth.revoke', { test: 'true' }, user.access_token)).toEqual({
      ok: true,
      revoked: false,
    });
    expect((await call('auth.test', {}, user.access_token)).ok).toBe(true);
    expect(await call('auth.revoke', {}, user.access_token)).toEqual({ ok: true, revoked: true });
    expect(await call('auth.test', {}, user.access_token)).toMatchObject({
      ok: false,
      error: 'token_revoked',
    });
    expect(await renew(user.refresh_token)).toEqual({ ok: false, error: 'invalid_refresh_token' });
  });

  it('auth.revoke ends a configured token too', async () => {
    await start();
    expect(await call('auth.revoke', {}, 'xoxb-other-token')).toEqual({ ok: true, revoked: true });
    expect(await call('auth.test', {}, 'xoxb-other-token')).toMatchObject({
      ok: false,
      error: 'token_revoked',
    });
  });
});
