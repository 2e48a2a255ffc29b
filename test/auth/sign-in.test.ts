// Sign in with Slack through the real app service, the real loopback listener and the reference
// service over real HTTP; the person at the browser is consent-client.ts following the page.
// Every way it can end without signing in leaves nothing saved.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { accessAccount, refreshAccount } from '../../main/core/secrets/workspace-secrets';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { consent, visit } from '../reference-service/consent-client';
import type { ReferenceService } from '../reference-service/server';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePort,
  openApp,
  serviceFor,
  signInAndKeep,
} from './sign-in-helpers';

let root: string;
let port: number;
let service: ReferenceService;
let app: AppService | undefined;
let dataDir: string;
const secrets = () => createMemorySecretStore();
let store: ReturnType<typeof createMemorySecretStore>;
/** The keychain entry's workspace and origin (main/core/secrets/workspace-secrets.ts). */
const at = (id: string) => ({ id, baseUrl: service.url });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-sign-in-'));
  port = await freePort();
  service = await serviceFor(root, port);
  store = secrets();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await service.close();
  await rm(root, { recursive: true, force: true });
});

async function start(openBrowser?: (url: string) => Promise<void>, timeoutMs?: number) {
  const opened = await openApp({
    root,
    port,
    secrets: store,
    ...(openBrowser ? { openBrowser } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  app = opened.app;
  dataDir = opened.dataDir;
  return opened.app;
}

const request = { baseUrl: '', clientId: DEFAULT_CLIENT_ID };
const signIn = (a: AppService, extra: { workspaceId?: string; clientId?: string } = {}) =>
  signInAndKeep(a, { ...request, baseUrl: service.url, ...extra });

async function nothingSaved(a: AppService) {
  expect((await a.getSnapshot()).workspaces).toEqual([]);
  const settings = await readFile(join(dataDir, 'config.json'), 'utf8').catch(() => '');
  expect(settings).not.toMatch(/xox/);
}

/** Every access token the service issued in this test is revoked there (polled: revoking runs on
 * after the result). */
async function everyIssuedTokenRevoked() {
  await expect
    .poll(
      async () => {
        const issued = service.signInSecrets().filter((s) => s.startsWith('xoxe.xoxp-'));
        if (issued.length === 0) return 'none issued yet';
        const answers = await Promise.all(
          issued.map(async (token) => {
            const res = await fetch(`${service.url}/api/auth.test`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}` },
            });
            return ((await res.json()) as { error?: string }).error;
          }),
        );
        return answers.every((e) => e === 'token_revoked') ? 'revoked' : answers.join();
      },
      { timeout: 10_000 },
    )
    .toBe('revoked');
}

describe('signing in', () => {
  it('approves in the browser: "@alice in Trayshare Reference", a new workspace named after the team, tokens in the keychain only', async () => {
    const person = browser();
    const a = await start(person.open);
    const result = await signIn(a);
    expect(result).toEqual({
      ok: true,
      workspaceId: expect.any(String),
      user: '@alice',
      team: 'Trayshare Reference',
    });
    if (!result.ok) return;
    const [w] = (await a.getSnapshot()).workspaces;
    expect(w).toMatchObject({
      id: result.workspaceId,
      name: 'Trayshare Reference',
      auth: 'slack',
      clientId: DEFAULT_CLIENT_ID,
      teamId: 'T0REFERENCE',
      hasToken: true,
      signedIn: { user: '@alice', team: 'Trayshare Reference', expired: false },
    });
    expect(w!.tokenExpiresAt).toBeGreaterThan(Date.now() + 43_000_000);
    // The tab tells the person it worked.
    const outcome = await person.outcomes[0]!;
    expect(outcome.landing?.html).toContain(
      'Signed in as @alice in Trayshare Reference: go back to Trayshare to keep this sign-in. You can close this tab.',
    );
    // The authorize URL: PKCE S256, the user scopes, the loopback redirect; no secret in it.
    const url = new URL(person.opened[0]!);
    // Slack's PKCE pair: /oauth/v2/authorize with user_scope and no scope (never v2_user).
    expect(url.pathname).toBe('/oauth/v2/authorize');
    expect(url.searchParams.has('scope')).toBe(false);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(slackRedirectUri(port));
    expect(url.searchParams.get('user_scope')).toBe(
      'files:write,files:read,channels:read,groups:read,im:read,mpim:read,users:read',
    );
    const access = await store.get(accessAccount(at(result.workspaceId)));
    const refresh = await store.get(refreshAccount(at(result.workspaceId)));
    expect(access).toMatch(/^xoxe\.xoxp-/);
    expect(service.refreshStatus(refresh!)).toBe('current');
    const settingsText = await readFile(join(dataDir, 'config.json'), 'utf8');
    expect(settingsText).not.toContain(access!);
    expect(settingsText).not.toContain(refresh!);
    expect(settingsText).not.toContain(outcome.redirectedTo!.split('code=')[1]!.split('&')[0]!);
    // A share lands, posted as alice.
    const file = join(root, 'hello.txt');
    await writeFile(file, 'hello');
    await a.share({
      target: { workspaceId: result.workspaceId, channels: ['C0GENERAL'] },
      paths: [file],
    });
    await a.settled();
    expect(service.uploads().map((u) => [u.name, u.user])).toEqual([['hello.txt', 'U0ALICE']]);
  });

  it('signing a workspace in again replaces its tokens and ends the old sign-in at the service', async () => {
    const a = await start(browser().open);
    const first = await signIn(a);
    if (!first.ok) throw new Error(first.message);
    const oldAccess = (await store.get(accessAccount(at(first.workspaceId))))!;
    const oldRefresh = (await store.get(refreshAccount(at(first.workspaceId))))!;
    const again = await signIn(a, { workspaceId: first.workspaceId });
    expect(again).toMatchObject({ ok: true, workspaceId: first.workspaceId });
    expect(await store.get(accessAccount(at(first.workspaceId)))).not.toBe(oldAccess);
    expect(service.refreshStatus(oldRefresh)).toBe('revoked');
    expect(service.refreshStatus((await store.get(refreshAccount(at(first.workspaceId))))!)).toBe(
      'current',
    );
    expect((await a.getSnapshot()).workspaces).toHaveLength(1);
  });

  it('a second Sign in while one waits ends the first (cancelled) and signs in', async () => {
    const person = browser('away');
    const a = await start(person.open);
    const first = signIn(a);
    await new Promise((r) => setTimeout(r, 100));
    person.choice = {};
    const second = signIn(a);
    expect(await first).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await second).toMatchObject({ ok: true, user: '@alice' });
    expect((await a.getSnapshot()).workspaces).toHaveLength(1);
  });

  it('a token never follows a workspace to another origin: neither a re-sign-in nor an edit moves a signed-in workspace', async () => {
    const person = browser();
    const a = await start(person.open);
    const first = await signIn(a);
    if (!first.ok) throw new Error(first.message);
    const access = await store.get(accessAccount(at(first.workspaceId)));
    const other = 'https://files.example.net';
    expect(
      await signInAndKeep(a, { ...request, baseUrl: other, workspaceId: first.workspaceId }),
    ).toMatchObject({
      ok: false,
      reason: 'other_service',
      message: expect.stringContaining(`cannot be signed in at ${other}`),
    });
    // Refused before anything opened: no consent page at the other host.
    expect(person.opened).toHaveLength(1);
    await expect(a.updateWorkspace(first.workspaceId, { baseUrl: other })).rejects.toThrow(
      /sign out of it first/,
    );
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({
      baseUrl: service.url,
      signedIn: { user: '@alice' },
    });
    expect(await store.get(accessAccount(at(first.workspaceId)))).toBe(access);
    // Signed out (ended at its own service), it may move: nothing of the old sign-in goes along.
    expect(await a.signOut(first.workspaceId)).toMatchObject({ ok: true, revoked: true });
    expect(await a.updateWorkspace(first.workspaceId, { baseUrl: other })).toMatchObject({
      baseUrl: other,
    });
  });

  it('uses a fresh state and verifier for each attempt', async () => {
    const person = browser();
    const a = await start(person.open);
    await signIn(a);
    await signIn(a);
    const [one, two] = person.opened.map((u) => new URL(u).searchParams);
    expect(one!.get('state')).not.toBe(two!.get('state'));
    expect(one!.get('code_challenge')).not.toBe(two!.get('code_challenge'));
  });
});

describe('ending without signing in, nothing saved', () => {
  it('Deny: access_denied, and the tab says so plainly', async () => {
    const person = browser({ decision: 'deny' });
    const a = await start(person.open);
    expect(await signIn(a)).toMatchObject({
      ok: false,
      reason: 'access_denied',
      message: expect.stringMatching(/not to allow/),
    });
    expect((await person.outcomes[0]!).landing?.html).toContain('You chose not to allow Trayshare');
    await nothingSaved(a);
  });

  it('nobody approves in time: timeout', async () => {
    const a = await start(browser('away').open, 300);
    expect(await signIn(a)).toMatchObject({ ok: false, reason: 'timeout' });
    await nothingSaved(a);
    // The listener is gone: the port is free again.
    expect((await visit(`${slackRedirectUri(port)}?code=x&state=y`)).status).toBe(0);
  });

  it('Cancel while waiting: cancelled', async () => {
    const a = await start(browser('away').open);
    const waiting = signIn(a);
    await new Promise((r) => setTimeout(r, 100));
    await a.cancelSignIn();
    expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
    await nothingSaved(a);
  });

  it('the loopback port is taken: port_in_use, naming the port and the program that holds it, and the browser never opens', async () => {
    const squatter: Server = createServer((_q, r) => r.end());
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const person = browser();
      const a = await start(person.open);
      const result = await signIn(a);
      expect(result).toMatchObject({
        ok: false,
        reason: 'port_in_use',
        message: expect.stringContaining(String(port)),
      });
      // This test's own process holds it; Linux, macOS and Windows each can tell.
      if (!result.ok) expect(result.message).toContain(`(process ${process.pid})`);
      expect(person.opened).toEqual([]);
      await nothingSaved(a);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('no browser can be opened: no_browser, suggesting --no-browser', async () => {
    const a = await start(async () => {
      throw new Error('xdg-open: not found');
    });
    expect(await signIn(a)).toMatchObject({
      ok: false,
      reason: 'no_browser',
      message: expect.stringContaining('--no-browser'),
    });
    await nothingSaved(a);
  });

  it('a client ID that is not one: invalid_client_id before the browser opens', async () => {
    const person = browser();
    const a = await start(person.open);
    expect(await signIn(a, { clientId: 'my-app' })).toMatchObject({
      ok: false,
      reason: 'invalid_client_id',
    });
    expect(person.opened).toEqual([]);
  });

  it('a client ID the service does not know: the page says invalid_client_id, and Cancel ends it', async () => {
    const person = browser();
    const a = await start(person.open);
    const waiting = signIn(a, { clientId: '9999999999.9999999999' });
    await new Promise((r) => setTimeout(r, 50));
    const outcome = await person.outcomes[0]!;
    expect(outcome.page.html).toContain('data-error="invalid_client_id"');
    await a.cancelSignIn();
    expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
    await nothingSaved(a);
  });

  it('the Slack app does not list the redirect URL: the page says bad_redirect_uri', async () => {
    await service.close();
    service = await serviceFor(root, port, {
      apps: [{ clientId: DEFAULT_CLIENT_ID, redirectUrls: ['http://localhost:1/slack/callback'] }],
    });
    const person = browser();
    const a = await start(person.open, 2000);
    const result = await signIn(a);
    expect((await person.outcomes[0]!).page.html).toContain('data-error="bad_redirect_uri"');
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    await nothingSaved(a);
  });

  it('a stray callback without state (or with another) does not end the attempt: the tab says so, and the real answer still signs in', async () => {
    const strays: { status: number; html: string }[] = [];
    const person = browser('away');
    const a = await start(async (url) => {
      await person.open(url);
      const own = new URL(url).searchParams.get('state');
      // Any web page can send the browser here, with a code of its own.
      strays.push(await visit(`${slackRedirectUri(port)}?code=stolen`));
      strays.push(await visit(`${slackRedirectUri(port)}?code=stolen&state=not-${own}`));
      strays.push(await visit(`${slackRedirectUri(port)}?error=access_denied`));
      // Then the person approves in the tab Trayshare opened.
      void consent(url, {});
    });
    const result = await signIn(a);
    expect(result).toMatchObject({ ok: true, user: '@alice' });
    expect(strays.map((p) => p.status)).toEqual([400, 400, 400]);
    for (const page of strays) expect(page.html).toContain('does not belong to the sign-in');
    // The stray code was never sent anywhere: the one exchanged was the service's own.
    expect(service.signInSecrets()).not.toContain('stolen');
  });

  it('an idle socket and a half-sent request held on the listener: the sign-in still ends, and both are closed', async () => {
    const held: Socket[] = [];
    const closedSockets: Promise<void>[] = [];
    const a = await start(async (url) => {
      for (const text of ['', 'GET /slack/callback?code=x HTTP/1.1\r\nHost: localhost\r\n']) {
        const socket = connect(port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        if (text) socket.write(text);
        socket.on('error', () => undefined);
        closedSockets.push(new Promise((resolve) => socket.once('close', () => resolve())));
        held.push(socket);
      }
      void consent(url, {});
    });
    try {
      // Before, this never returned: "Waiting…" for ever, with the tokens already saved.
      expect(await signIn(a)).toMatchObject({ ok: true, user: '@alice' });
      await Promise.all(closedSockets);
      expect((await visit(`${slackRedirectUri(port)}?code=x&state=y`)).status).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('Cancel while the service is answering the exchange: cancelled at once, nothing kept, and the late tokens revoked', async () => {
    service.injectFault({ method: 'oauth.v2.access', fault: { kind: 'slow', delayMs: 1500 } });
    let landed!: () => void;
    const tabAnswered = new Promise<void>((resolve) => {
      landed = resolve;
    });
    const a = await start(async (url) => {
      void consent(url, {}).then(() => landed());
    });
    const waiting = signIn(a);
    // The browser came back; the exchange is under way when the person presses Cancel.
    // The consent tab's round trip comes first: on a busy machine it outlasts the poll's
    // default second, so the wait is the test's own (the slow answer starts after it).
    await expect
      .poll(() => service.traffic().countOf['oauth.v2.access'] ?? 0, { timeout: 10_000 })
      .toBe(1);
    await a.cancelSignIn();
    expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
    await tabAnswered;
    await nothingSaved(a);
    // The answer that came after Cancel is ended at the service, never left alive there.
    await everyIssuedTokenRevoked();
  });

  it('Cancel while auth.test checks the new tokens: cancelled at once, nothing kept, and the tokens revoked', async () => {
    service.injectFault({ method: 'auth.test', fault: { kind: 'slow', delayMs: 1500 } });
    const a = await start(async (url) => {
      void consent(url, {});
    });
    const waiting = signIn(a);
    await expect
      .poll(() => service.traffic().countOf['auth.test'] ?? 0, { timeout: 10_000 })
      .toBe(1);
    await a.cancelSignIn();
    expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
    await nothingSaved(a);
    await everyIssuedTokenRevoked();
  });

  it('the callback twice: the second visit finds nothing listening', async () => {
    const person = browser();
    const a = await start(person.open);
    expect((await signIn(a)).ok).toBe(true);
    const outcome = await person.outcomes[0]!;
    expect((await visit(outcome.redirectedTo!)).status).toBe(0);
    expect((await a.getSnapshot()).workspaces).toHaveLength(1);
  });

  it('the service is down during the exchange: service_unreachable', async () => {
    service.injectFault({ method: 'oauth.v2.access', fault: { kind: 'reset-after-body' } });
    const a = await start(browser().open);
    expect(await signIn(a)).toMatchObject({ ok: false, reason: 'service_unreachable' });
    await nothingSaved(a);
  });

  it('signing a workspace in again with another team: wrong_team, the workspace and its tokens unchanged', async () => {
    const person = browser();
    const a = await start(person.open);
    const first = await signIn(a);
    if (!first.ok) throw new Error(first.message);
    const before = await store.get(accessAccount(at(first.workspaceId)));
    person.choice = { as: 'U0BOB' };
    const again = await signIn(a, { workspaceId: first.workspaceId });
    expect(again).toMatchObject({
      ok: false,
      reason: 'wrong_team',
      message: expect.stringMatching(/Elsewhere Inc.*Trayshare Reference/),
    });
    expect(await store.get(accessAccount(at(first.workspaceId)))).toBe(before);
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({
      teamId: 'T0REFERENCE',
      signedIn: { user: '@alice' },
    });
    // The team ID was sent to preselect the team.
    expect(new URL(person.opened[1]!).searchParams.get('team')).toBe('T0REFERENCE');
  });
});
