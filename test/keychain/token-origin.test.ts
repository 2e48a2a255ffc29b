// A token never follows a workspace to another origin (main/core/secrets/workspace-secrets.ts),
// over the real keychain (run under build/scripts/with-keyring.mjs), real HTTP and, for the
// second process, the built CLI. Saving a token waits for auth.test at the workspace's address;
// here that answer is held at origin A while the workspace moves to origin B, by this process or
// by `trayshare login` in another. Once A answers, nothing may be kept for B, and no request
// carrying the token checked at A may reach B. Origin A and B are two held-origin.ts servers in
// front of one reference service, so both know the same tokens.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { KeychainError, type SecretStore } from '../../main/core/secrets/secret-store';
import {
  accessAccount,
  legacyAccounts,
  refreshAccount,
} from '../../main/core/secrets/workspace-secrets';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { DEFAULT_CLIENT_ID, freePort, serviceFor, signInAndKeep } from '../auth/sign-in-helpers';
import { runCli } from '../cli/run-cli';
import { type HeldOrigin, heldOrigin } from '../helpers/held-origin';
import { consent } from '../reference-service/consent-client';
import type { ReferenceService } from '../reference-service/server';

// The reference service's two configured tokens (test/reference-service/config.ts): U0TEST's and U0OTHER's.
const CHECKED_AT_A = 'xoxb-test-token';
const SAVED_FOR_B = 'xoxb-other-token';
/** The one channel U0OTHER is a member of. */
const OTHERS_CHANNEL = 'C0RANDOM';

// The app's own keychain service, as the CLI uses it: with-keyring gives this run a throw-away
// keyring, so both processes share it as the app and the CLI do.
const keychain = createKeychainStore();
/** The keychain, except that writing this one account fails, as a keychain that refuses would. */
let failWrite: string | undefined;
const faulty: SecretStore = {
  get: (account) => keychain.get(account),
  delete: (account) => keychain.delete(account),
  set: async (account, secret) => {
    if (account === failWrite) {
      throw new KeychainError('denied', 'The keychain refused to save the token (injected).');
    }
    return keychain.set(account, secret);
  },
};
let root: string;
let port: number;
let dataDir: string;
let service: ReferenceService;
let a: HeldOrigin;
let b: HeldOrigin;
let app: AppService | undefined;
let workspaceId = '';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-token-origin-'));
  dataDir = join(root, 'data');
  port = await freePort();
  failWrite = undefined;
  service = await serviceFor(root, port);
  a = await heldOrigin(service.url);
  b = await heldOrigin(service.url);
  app = await createAppService({
    dataDir,
    secrets: faulty,
    transport: createNodeTransport(),
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
  });
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const origin of [a.url, b.url, service.url]) {
    const home = { id: workspaceId, baseUrl: origin };
    for (const account of [accessAccount(home), refreshAccount(home)]) {
      await keychain.delete(account).catch(() => false);
    }
  }
  for (const account of Object.values(legacyAccounts(workspaceId))) {
    await keychain.delete(account).catch(() => false);
  }
  await Promise.all([a.close(), b.close()]);
  await service.close();
  await rm(root, { recursive: true, force: true });
});

/** Every keychain entry this workspace could have, by its spelling, with what it holds. */
async function entries(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const accounts = [a.url, b.url, service.url].flatMap((origin) => {
    const home = { id: workspaceId, baseUrl: origin };
    return [accessAccount(home), refreshAccount(home)];
  });
  accounts.push(...Object.values(legacyAccounts(workspaceId)));
  for (const account of accounts) {
    const value = await keychain.get(account);
    if (value !== null) found[account] = value;
  }
  return found;
}

/** Shares one file to the workspace and waits until nothing more can happen without a person. */
async function shareOne(name: string, channel: string): Promise<void> {
  const path = join(root, name);
  await writeFile(path, `contents of ${name}`);
  await app!.share({ target: { workspaceId, channels: [channel] }, paths: [path] });
  await app!.settled();
}

/** No token is kept for the workspace where it is now: a share is refused before anything is sent. */
async function noTokenToShareWith(): Promise<void> {
  const path = join(root, 'refused.txt');
  await writeFile(path, 'never sent');
  await expect(
    app!.share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths: [path] }),
  ).rejects.toThrow(/No token/);
}

async function acmeAtA(): Promise<void> {
  const w = await app!.addWorkspace({ name: 'Acme', baseUrl: a.url });
  workspaceId = w.id;
}

describe('saving a token while the workspace moves to another origin', () => {
  it('moved by the same process: nothing is saved, the person is told, and nothing reaches the new host', async () => {
    await acmeAtA();
    const held = a.hold('auth.test');
    const saving = app!.saveToken(workspaceId, CHECKED_AT_A);
    await held.reached;
    await app!.updateWorkspace(workspaceId, { baseUrl: b.url });
    held.release();
    const saved = await saving;
    expect(saved).toMatchObject({ saved: false, ok: false });
    expect(saved.message).toBe(
      `Acme's address changed to ${b.url} while the token was being checked at ${a.url}; nothing was saved.`,
    );
    expect(await entries()).toEqual({});
    expect((await app!.getSnapshot()).workspaces[0]).toMatchObject({
      baseUrl: b.url,
      hasToken: false,
    });
    await noTokenToShareWith();
    expect(b.carried(CHECKED_AT_A)).toBe(false);
    expect(service.uploads()).toEqual([]);
  });

  it('moved by the CLI in another process: the token saved there stays, and only it reaches the new host', async () => {
    await acmeAtA();
    const held = a.hold('auth.test');
    const saving = app!.saveToken(workspaceId, CHECKED_AT_A);
    await held.reached;
    const moved = await runCli(['login', '--workspace', 'Acme', '--base-url', b.url], {
      env: { TRAYSHARE_DATA_DIR: dataDir },
      input: `${SAVED_FOR_B}\n`,
    });
    expect(moved.code, moved.stderr).toBe(0);
    held.release();
    const saved = await saving;
    expect(saved).toMatchObject({ saved: false, ok: false });
    expect(saved.message).toContain(`Acme's address changed to ${b.url}`);
    expect(await entries()).toEqual({
      [accessAccount({ id: workspaceId, baseUrl: b.url })]: SAVED_FOR_B,
    });
    await shareOne('after-the-cli-move.txt', OTHERS_CHANNEL);
    expect(service.uploads().map((u) => [u.name, u.user])).toEqual([
      ['after-the-cli-move.txt', 'U0OTHER'],
    ]);
    expect(b.carried(CHECKED_AT_A)).toBe(false);
  }, 90_000);
});

describe('signing in again while the workspace moves to another origin', () => {
  /** The browser's tabs: the first sign-in is approved at once, a later one waits for the test. */
  const tabs: string[] = [];
  let tabOpened: () => void = () => {};

  beforeEach(async () => {
    tabs.length = 0;
    await app!.close();
    app = await createAppService({
      dataDir,
      secrets: faulty,
      transport: createNodeTransport(),
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      signInPorts: [port],
      openBrowser: async (url) => {
        tabs.push(url);
        if (tabs.length === 1) void consent(url, {});
        else tabOpened();
      },
    });
  });

  // Signing in again after a sign-out asks who signed in: these tests keep what is asked.
  const signIn = (again?: string) =>
    signInAndKeep(app!, {
      baseUrl: service.url,
      clientId: DEFAULT_CLIENT_ID,
      ...(again ? { workspaceId: again } : {}),
    });

  /** Signed in at the service, then out (so the workspace may move), then in again: the tab waits. */
  async function signInAgainWaiting() {
    const first = await signIn();
    if (!first.ok) throw new Error(first.message);
    workspaceId = first.workspaceId;
    expect(await app!.signOut(workspaceId)).toMatchObject({ ok: true });
    const waiting = new Promise<void>((resolve) => {
      tabOpened = resolve;
    });
    const again = signIn(workspaceId);
    await waiting;
    return { again, tab: tabs[1]! };
  }

  /** Every access token the service issued by Sign in with Slack. */
  const issued = () => service.signInSecrets().filter((s) => s.startsWith('xoxe.xoxp-'));

  it('moved by this process while the tab waits: "nothing was saved" is true', async () => {
    const { again, tab } = await signInAgainWaiting();
    await app!.updateWorkspace(workspaceId, { baseUrl: b.url });
    await consent(tab, {});
    const result = await again;
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toBe(
      `The sign-in did not finish: Trayshare Reference's address changed to ${b.url} while you were signing in at ${service.url}; nothing was saved.`,
    );
    expect(await entries()).toEqual({});
    expect((await app!.getSnapshot()).workspaces[0]).toMatchObject({ hasToken: false });
    await noTokenToShareWith();
    for (const token of issued()) expect(b.carried(token)).toBe(false);
  });

  it('moved by the CLI while the tab waits: only the token saved there reaches the new host', async () => {
    const { again, tab } = await signInAgainWaiting();
    const moved = await runCli(
      ['login', '--workspace', 'Trayshare Reference', '--base-url', b.url],
      { env: { TRAYSHARE_DATA_DIR: dataDir }, input: `${SAVED_FOR_B}\n` },
    );
    expect(moved.code, moved.stderr).toBe(0);
    await consent(tab, {});
    const result = await again;
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toContain(
      `Trayshare Reference's address changed to ${b.url} while you were signing in`,
    );
    expect(await entries()).toEqual({
      [accessAccount({ id: workspaceId, baseUrl: b.url })]: SAVED_FOR_B,
    });
    await shareOne('after-the-cli-move.txt', OTHERS_CHANNEL);
    expect(service.uploads().map((u) => [u.name, u.user])).toEqual([
      ['after-the-cli-move.txt', 'U0OTHER'],
    ]);
    for (const token of issued()) expect(b.carried(token)).toBe(false);
  }, 90_000);

  it('the keychain refuses the second write of a sign-in again: both tokens as they were, the old sign-in still works', async () => {
    const first = await signIn();
    if (!first.ok) throw new Error(first.message);
    workspaceId = first.workspaceId;
    const before = await entries();
    const home = { id: workspaceId, baseUrl: service.url };
    expect(Object.keys(before).sort()).toEqual([accessAccount(home), refreshAccount(home)].sort());
    failWrite = accessAccount(home);
    tabOpened = () => {};
    const waiting = new Promise<void>((resolve) => {
      tabOpened = resolve;
    });
    const again = signIn(workspaceId);
    await waiting;
    await consent(tabs[1]!, {});
    const result = await again;
    expect(result).toMatchObject({ ok: false, reason: 'keychain' });
    failWrite = undefined;
    expect(await entries()).toEqual(before);
    // The refresh token put back is the old sign-in's own, still current at the service.
    expect(service.refreshStatus(before[refreshAccount(home)]!)).toBe('current');
    await shareOne('still-signed-in.txt', 'C0GENERAL');
    expect(service.uploads().map((u) => [u.name, u.user])).toEqual([
      ['still-signed-in.txt', 'U0ALICE'],
    ]);
  });
});
