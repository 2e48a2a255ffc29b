// A sign-in cannot be finished by someone else: whoever reads the consent page's address (on
// Linux, any local user, from /proc/<pid>/cmdline of xdg-open or the browser) can approve it as
// themselves before the person does. The app is then told who signed in and keeps nothing until
// the person confirms; what is not kept is revoked at the service. Through the real app service,
// the real loopback listener and the reference service over real HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import type { SecretStore } from '../../main/core/secrets/secret-store';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { defaultOAuthConfig } from '../reference-service/oauth-config';
import type { ReferenceService } from '../reference-service/server';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePort,
  issuedTokens,
  openApp,
  serviceFor,
} from './sign-in-helpers';

let root: string;
let service: ReferenceService;
let app: AppService;
/** Every secret the app wrote to its keychain, in order. */
let written: string[];
const person = browser();

/** The memory keychain, telling what was written to it. */
function watchedSecrets(): SecretStore {
  const store = createMemorySecretStore();
  return {
    ...store,
    set: async (account, secret) => {
      written.push(secret);
      await store.set(account, secret);
    },
  };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-sign-in-confirm-'));
  const port = await freePort();
  written = [];
  person.opened.length = 0;
  person.outcomes.length = 0;
  person.choice = {};
  service = await serviceFor(root, port, {
    // A second person of the same team, and Bob of another team (the default config's).
    signers: [
      ...defaultOAuthConfig.signers,
      {
        user: 'U0CAROL',
        name: 'carol',
        team: { id: 'T0REFERENCE', name: 'Trayshare Reference' },
        channels: ['C0GENERAL'],
      },
    ],
  });
  ({ app } = await openApp({ root, port, secrets: watchedSecrets(), openBrowser: person.open }));
});
afterEach(async () => {
  await app.close();
  await service.close();
  await rm(root, { recursive: true, force: true });
});

const signIn = (workspaceId?: string) =>
  app.signInWithSlack({
    baseUrl: service.url,
    clientId: DEFAULT_CLIENT_ID,
    ...(workspaceId ? { workspaceId } : {}),
  });

/** What auth.test answers each access token the service issued (revoked: 'token_revoked'). */
describe('a new workspace waits for the person to say who signed in is them', () => {
  it('someone else approves first, as Bob of Elsewhere Inc: the app is told who, keeps nothing, and Cancel ends their sign-in at the service', async () => {
    // The address as anyone could read it, approved as Bob before the person gets to it.
    person.choice = { as: 'U0BOB' };
    const asked = await signIn();
    expect(asked).toEqual({
      ok: 'confirm',
      pendingId: expect.any(String),
      user: '@bob.builder',
      team: 'Elsewhere Inc',
    });
    // The tab Bob used says to go back to the app, not that anything is connected.
    expect((await person.outcomes[0]!).landing?.html).toContain(
      'Signed in as @bob.builder in Elsewhere Inc: go back to Trayshare to keep this sign-in.',
    );
    // Nothing kept while the person has not answered, and no token crossed to the caller.
    expect((await app.getSnapshot()).workspaces).toEqual([]);
    expect(written).toEqual([]);
    expect(JSON.stringify(asked)).not.toMatch(/xox/);
    expect(await issuedTokens(service)).toEqual([undefined]);

    if (asked.ok !== 'confirm') return;
    const answer = await app.confirmSignIn(asked.pendingId, false);
    expect(answer).toEqual({
      ok: false,
      reason: 'cancelled',
      message:
        'You did not keep the sign-in of @bob.builder in Elsewhere Inc, so nothing was saved and the sign-in was ended at the service.',
    });
    expect((await app.getSnapshot()).workspaces).toEqual([]);
    expect(written).toEqual([]);
    expect(await issuedTokens(service)).toEqual(['token_revoked']);
    // Answered once: the same ID keeps nothing later.
    expect(await app.confirmSignIn(asked.pendingId, true)).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
    expect((await app.getSnapshot()).workspaces).toEqual([]);
  });

  it('their own account: kept only once confirmed, named after the team, tokens in the keychain', async () => {
    const asked = await signIn();
    expect(asked).toMatchObject({ ok: 'confirm', user: '@alice', team: 'Trayshare Reference' });
    expect((await app.getSnapshot()).workspaces).toEqual([]);
    if (asked.ok !== 'confirm') return;
    const kept = await app.confirmSignIn(asked.pendingId, true);
    expect(kept).toEqual({
      ok: true,
      workspaceId: expect.any(String),
      user: '@alice',
      team: 'Trayshare Reference',
    });
    const [w] = (await app.getSnapshot()).workspaces;
    expect(w).toMatchObject({
      name: 'Trayshare Reference',
      hasToken: true,
      signedIn: { user: '@alice', team: 'Trayshare Reference', expired: false },
    });
    expect(await issuedTokens(service)).toEqual([undefined]);
  });

  it('Cancel, or a new sign-in, ends the one that waits for its answer, its tokens revoked', async () => {
    const first = await signIn();
    if (first.ok !== 'confirm') throw new Error('not asked');
    await app.cancelSignIn();
    await expect.poll(() => issuedTokens(service)).toEqual(['token_revoked']);
    expect(await app.confirmSignIn(first.pendingId, true)).toMatchObject({ ok: false });

    const second = await signIn();
    const third = await signIn();
    if (second.ok !== 'confirm' || third.ok !== 'confirm') throw new Error('not asked');
    await expect
      .poll(() => issuedTokens(service))
      .toEqual(['token_revoked', 'token_revoked', undefined]);
    expect(await app.confirmSignIn(second.pendingId, true)).toMatchObject({ ok: false });
    expect((await app.getSnapshot()).workspaces).toEqual([]);
    expect(written).toEqual([]);
  });
});

describe('signing a workspace in again', () => {
  async function aliceKept(): Promise<string> {
    const asked = await signIn();
    if (asked.ok !== 'confirm') throw new Error('not asked');
    const kept = await app.confirmSignIn(asked.pendingId, true);
    if (!kept.ok) throw new Error(kept.message);
    return kept.workspaceId;
  }

  it('by the same person: kept without asking (someone else would bring their own account)', async () => {
    const id = await aliceKept();
    expect(await signIn(id)).toMatchObject({ ok: true, workspaceId: id, user: '@alice' });
  });

  it('by another person of the same team: asked first, and Cancel leaves the old sign-in as it was', async () => {
    const id = await aliceKept();
    const before = [...written];
    person.choice = { as: 'U0CAROL' };
    const asked = await signIn(id);
    expect(asked).toMatchObject({ ok: 'confirm', user: '@carol', team: 'Trayshare Reference' });
    if (asked.ok !== 'confirm') return;
    expect(await app.confirmSignIn(asked.pendingId, false)).toMatchObject({
      ok: false,
      reason: 'cancelled',
    });
    expect(written).toEqual(before);
    expect((await app.getSnapshot()).workspaces[0]?.signedIn?.user).toBe('@alice');
    // Alice's sign-in still works; Carol's was ended.
    expect(await issuedTokens(service)).toEqual([undefined, 'token_revoked']);
  });
});
