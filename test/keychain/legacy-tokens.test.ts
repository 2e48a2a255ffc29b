// Keychain entries from before tokens were tied to an origin (account "<id>" and "<id>:refresh")
// in the real Secret Service (run under build/scripts/with-keyring.mjs): the first read moves
// them to the workspace's origin, with no new sign-in and no copy left behind, and removing the
// workspace or its token removes both spellings.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import {
  accessAccount,
  legacyAccounts,
  refreshAccount,
  workspaceSecrets,
} from '../../main/core/secrets/workspace-secrets';
import {
  openSettingsService,
  type SettingsService,
} from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';

const ACME = 'https://acme.example';
const ACCESS = 'xoxe.xoxp-1-kept-before-origins';
const REFRESH = 'xoxe-1-kept-before-origins';
// A keychain service of this run's own, so nothing collides with real entries.
const keychain = createKeychainStore({ service: `Trayshare-test-${randomUUID()}` });
let dir: string;
let settings: SettingsService;
let touched: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-legacy-tokens-'));
  settings = openSettingsService({ dir, secrets: keychain, transport: createNodeTransport() });
});
afterEach(async () => {
  for (const account of touched) await keychain.delete(account).catch(() => false);
  touched = [];
  await rm(dir, { recursive: true, force: true });
});

/** A workspace at ACME with both tokens kept the old way, as an earlier version left them. */
async function keptTheOldWay() {
  const w = await settings.addWorkspace({ name: 'Acme', baseUrl: ACME });
  const legacy = legacyAccounts(w.id);
  touched.push(legacy.access, legacy.refresh, accessAccount(w), refreshAccount(w));
  await keychain.set(legacy.access, ACCESS);
  await keychain.set(legacy.refresh, REFRESH);
  return { w, legacy };
}

it('the first read moves both entries to the workspace origin; nothing is left under the old names', async () => {
  const { w, legacy } = await keptTheOldWay();
  // What the window and the CLI read first: the snapshot.
  expect((await settings.getSnapshot()).workspaces[0]).toMatchObject({ hasToken: true });
  expect(await keychain.get(accessAccount(w))).toBe(ACCESS);
  expect(await keychain.get(legacy.access)).toBeNull();
  // The refresh token moves the first time it is read too (a signed-in workspace's snapshot,
  // or a renewal).
  expect(await workspaceSecrets(keychain).refreshToken(w)).toBe(REFRESH);
  expect(await keychain.get(refreshAccount(w))).toBe(REFRESH);
  expect(await keychain.get(legacy.refresh)).toBeNull();
  // An upload asks for the token of the origin it goes to.
  expect(await settings.token(w)).toBe(ACCESS);
  expect(await settings.token({ id: w.id, baseUrl: 'https://elsewhere.example' })).toBeNull();
});

it('removing the workspace removes the old and the new spellings', async () => {
  const { w, legacy } = await keptTheOldWay();
  // One token already moved, the other not yet: both kinds are there at once.
  expect(await workspaceSecrets(keychain).accessToken(w)).toBe(ACCESS);
  const removed = await settings.removeWorkspaceWithSummary(w.id);
  expect(removed.token).toBe('removed');
  for (const account of [legacy.access, legacy.refresh, accessAccount(w), refreshAccount(w)]) {
    expect(await keychain.get(account), account).toBeNull();
  }
});

it('clearing the token removes the old spelling too, before it was ever read', async () => {
  const { w, legacy } = await keptTheOldWay();
  expect(await settings.clearToken(w.id)).toBe(true);
  expect(await keychain.get(legacy.access)).toBeNull();
  expect(await keychain.get(legacy.refresh)).toBeNull();
  expect((await settings.getSnapshot()).workspaces[0]).toMatchObject({ hasToken: false });
});

it('moving a workspace to another origin leaves its old entries behind for no one: they are removed', async () => {
  const { w, legacy } = await keptTheOldWay();
  const moved = await settings.updateWorkspace(w.id, { baseUrl: 'https://elsewhere.example' });
  expect(moved.tokenCleared).toBe(true);
  expect(await keychain.get(legacy.access)).toBeNull();
  expect(await keychain.get(legacy.refresh)).toBeNull();
  expect(await settings.token(moved)).toBeNull();
});
