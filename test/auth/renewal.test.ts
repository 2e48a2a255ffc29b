// Renewal of a signed-in workspace's tokens, over real HTTP to the reference service (whose
// clock the tests move, so its tokens expire without waiting): before expiry, on token_expired
// during an upload (sent again once: never posted twice), when the sign-in has run out
// ("Sign in again", the files wait and go after signing in again), and sign out.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { accessAccount, refreshAccount } from '../../main/core/secrets/workspace-secrets';
import { createMemorySecretStore } from '../harness/memory-secrets';
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
let clock: number;
let store: ReturnType<typeof createMemorySecretStore>;
const DAY = 24 * 3600 * 1000;
/** The keychain entry's workspace and origin (main/core/secrets/workspace-secrets.ts). */
const at = (id: string) => ({ id, baseUrl: service.url });

async function setUp(
  oauth: { accessTokenLifetimeSeconds?: number; refreshReuseSeconds?: number } = {},
) {
  service = await serviceFor(root, port, oauth, () => clock);
  const opened = await openApp({ root, port, secrets: store, openBrowser: browser().open });
  app = opened.app;
  const result = await signInAndKeep(app, { baseUrl: service.url, clientId: DEFAULT_CLIENT_ID });
  if (!result.ok) throw new Error(result.message);
  return { a: app, id: result.workspaceId };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-renewal-'));
  port = await freePort();
  clock = Date.now();
  store = createMemorySecretStore();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await service.close();
  await rm(root, { recursive: true, force: true });
});

async function share(a: AppService, id: string, name: string) {
  const path = join(root, name);
  await writeFile(path, `contents of ${name}`);
  return a.share({ target: { workspaceId: id, channels: ['C0GENERAL'] }, paths: [path] });
}

const auth = (token: string) =>
  fetch(`${service.url}/api/auth.test`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.json() as Promise<{ ok: boolean; error?: string }>);

describe('renewal', () => {
  it('an upload refused with token_expired is renewed and delivered exactly once', async () => {
    const { a, id } = await setUp();
    const oldRefresh = await store.get(refreshAccount(at(id)));
    clock += 43_200_000 + 1; // the service's access token has expired; the app does not know yet
    await share(a, id, 'late.txt');
    await a.settled();
    const [item] = await a.listQueue();
    expect(item).toMatchObject({ state: 'delivered' });
    expect(service.uploads().map((u) => u.name)).toEqual(['late.txt']);
    expect(service.messages()).toHaveLength(1);
    expect(service.renewals()).toBe(1);
    // The keychain holds the new pair: the old refresh token is spent, the new one current.
    expect(service.refreshStatus(oldRefresh!)).toBe('used');
    expect(service.refreshStatus((await store.get(refreshAccount(at(id))))!)).toBe('current');
    expect((await auth((await store.get(accessAccount(at(id))))!)).ok).toBe(true);
  });

  it('renews before the access token expires, without a refused call', async () => {
    const { a, id } = await setUp({ accessTokenLifetimeSeconds: 120 });
    const before = await store.get(accessAccount(at(id)));
    await share(a, id, 'early.txt');
    await a.settled();
    expect(service.renewals()).toBe(1);
    expect(await store.get(accessAccount(at(id)))).not.toBe(before);
    expect(service.uploads().map((u) => u.name)).toEqual(['early.txt']);
    const w = (await a.getSnapshot()).workspaces[0]!;
    expect(w.tokenExpiresAt).toBeGreaterThan(Date.now() + 100_000);
  });

  it('two lookups at once renew once', async () => {
    const { a, id } = await setUp({ accessTokenLifetimeSeconds: 120 });
    await Promise.all([
      share(a, id, 'one.txt'),
      share(a, id, 'two.txt'),
      a.listConversations(id, { refresh: true, wait: true }),
    ]);
    await a.settled();
    expect(service.renewals()).toBe(1);
    expect(
      service
        .uploads()
        .map((u) => u.name)
        .sort(),
    ).toEqual(['one.txt', 'two.txt']);
  });

  it('a run-out sign-in: "Sign in again", the files wait, and go once signed in again', async () => {
    const { a, id } = await setUp();
    const asked: string[] = [];
    a.on('needs-token', (e) => asked.push(e.message));
    clock += 30 * DAY + 1;
    await share(a, id, 'waits.txt');
    await a.settled();
    const [item] = await a.listQueue();
    expect(item).toMatchObject({
      state: 'waiting',
      error: { class: 'credential', code: 'sign_in_expired' },
    });
    expect(asked[0]).toMatch(/sign-in to Trayshare Reference has run out: sign in again/);
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({ signedIn: { expired: true } });
    expect(service.uploads()).toEqual([]);

    const again = await signInAndKeep(a, {
      workspaceId: id,
      baseUrl: service.url,
      clientId: DEFAULT_CLIENT_ID,
    });
    expect(again).toMatchObject({ ok: true, workspaceId: id });
    await a.settled();
    expect((await a.listQueue())[0]).toMatchObject({ state: 'delivered' });
    expect(service.uploads().map((u) => u.name)).toEqual(['waits.txt']);
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({ signedIn: { expired: false } });
  });

  it('known to need renewing and run out: a share is refused saying so, and the channel list says why', async () => {
    const { a, id } = await setUp({ accessTokenLifetimeSeconds: 120 });
    service.revokeSignIns('U0ALICE');
    await expect(share(a, id, 'refused.txt')).rejects.toThrow(
      /sign-in to Trayshare Reference has run out/,
    );
    const view = await a.listConversations(id, { refresh: true, wait: true });
    expect(view.problem?.message).toMatch(/has run out: sign in again/);
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({ signedIn: { expired: true } });
    expect(await a.listQueue()).toEqual([]);
  });

  it('a process that died after Slack answered a renewal but before storing it: "Sign in again", never silent', async () => {
    const { a, id } = await setUp();
    // The renewal the dead process made: the refresh token in the keychain is now spent.
    const spent = (await store.get(refreshAccount(at(id))))!;
    const answer = await fetch(`${service.url}/api/oauth.v2.access`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: DEFAULT_CLIENT_ID,
        grant_type: 'refresh_token',
        refresh_token: spent,
      }),
    });
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    const asked: string[] = [];
    a.on('needs-token', (e) => asked.push(e.message));
    clock += 43_200_000 + 1;
    await share(a, id, 'after-crash.txt');
    await a.settled();
    expect((await a.listQueue())[0]).toMatchObject({
      state: 'waiting',
      error: { code: 'sign_in_expired' },
    });
    expect(asked).toEqual([expect.stringMatching(/has run out: sign in again/)]);
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({ signedIn: { expired: true } });
  });

  it('the same crash with a service that answers a replayed refresh token within a grace period: recovered, no sign-in needed', async () => {
    const { a, id } = await setUp({ refreshReuseSeconds: 60 });
    const stale = (await store.get(accessAccount(at(id))))!;
    // The token ran out; another process renewed and died before storing the answer.
    clock += 43_200_000 + 1;
    const spent = (await store.get(refreshAccount(at(id))))!;
    await fetch(`${service.url}/api/oauth.v2.access`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: DEFAULT_CLIENT_ID,
        grant_type: 'refresh_token',
        refresh_token: spent,
      }),
    });
    // Half a minute later this process renews with the stored (spent) refresh token again.
    clock += 30_000;
    await share(a, id, 'recovered.txt');
    await a.settled();
    expect((await a.listQueue())[0]).toMatchObject({ state: 'delivered' });
    expect(await store.get(accessAccount(at(id)))).not.toBe(stale);
  });

  it('a revoked sign-in (an admin ended it) shows "Sign in again" too', async () => {
    const { a, id } = await setUp();
    service.revokeSignIns('U0ALICE');
    clock += 43_200_000 + 1;
    await share(a, id, 'revoked.txt');
    await a.settled();
    expect((await a.listQueue())[0]).toMatchObject({
      state: 'waiting',
      error: { code: 'sign_in_expired' },
    });
    expect((await a.getSnapshot()).workspaces[0]).toMatchObject({ signedIn: { expired: true } });
  });
});

describe('sign out', () => {
  it('when auth.revoke fails: says the token could not be revoked at the service, and still removes it here', async () => {
    const { a, id } = await setUp();
    const access = (await store.get(accessAccount(at(id))))!;
    service.injectFault({
      method: 'auth.revoke',
      fault: { kind: 'error', error: 'internal_error' },
    });
    const result = await a.signOut(id);
    expect(result).toEqual({
      ok: true,
      revoked: false,
      message: expect.stringMatching(
        /^Signed out of Trayshare Reference on this computer \(both tokens removed\), but the token could not be revoked at 127\.0\.0\.1:\d+ \(internal_error\): it may still work there until it expires\.$/,
      ),
    });
    expect(await store.get(accessAccount(at(id)))).toBeNull();
    expect(await store.get(refreshAccount(at(id)))).toBeNull();
    // True: the service never heard the revocation, so the token still works there.
    expect((await auth(access)).ok).toBe(true);
  });

  it('when the service cannot be reached: the same, saying there was no answer', async () => {
    const { a, id } = await setUp();
    service.injectFault({ method: 'auth.revoke', fault: { kind: 'reset-after-body' } });
    const result = await a.signOut(id);
    expect(result).toMatchObject({
      ok: true,
      revoked: false,
      message: expect.stringContaining('could not be revoked'),
    });
    expect(await store.get(accessAccount(at(id)))).toBeNull();
  });

  it('asks first while files wait, then revokes at the service and empties the keychain', async () => {
    const { a, id } = await setUp();
    const access = (await store.get(accessAccount(at(id))))!;
    const refresh = (await store.get(refreshAccount(at(id))))!;
    await a.setPaused(true);
    await share(a, id, 'queued.txt');
    expect(await a.signOut(id)).toEqual({ ok: false, waiting: 1 });
    expect(await store.get(accessAccount(at(id)))).toBe(access);
    expect(await a.signOut(id, { evenIfWaiting: true })).toMatchObject({ ok: true, revoked: true });
    expect(await auth(access)).toEqual({ ok: false, error: 'token_revoked' });
    expect(service.refreshStatus(refresh)).toBe('revoked');
    expect(await store.get(accessAccount(at(id)))).toBeNull();
    expect(await store.get(refreshAccount(at(id)))).toBeNull();
    const w = (await a.getSnapshot()).workspaces[0]!;
    expect(w).toMatchObject({ hasToken: false });
    expect(w.signedIn).toBeUndefined();
    expect(w.tokenExpiresAt).toBeUndefined();
  });

  it('with an expired access token, renews first so the revocation reaches the service', async () => {
    const { a, id } = await setUp();
    const refresh = (await store.get(refreshAccount(at(id))))!;
    clock += 43_200_000 + 1;
    // The app's clock still thinks the token is fresh: the service must say so first.
    const w = (await a.getSnapshot()).workspaces[0]!;
    expect(w.tokenExpiresAt).toBeGreaterThan(Date.now());
    expect(await a.signOut(id)).toMatchObject({ ok: true, revoked: true });
    expect(service.refreshStatus(refresh)).not.toBe('current');
  });
});
