// The keychain locks while a signed-in workspace's token needs renewing (run under
// build/scripts/with-keyring.mjs: the real Secret Service underneath). The lock is injected in
// front of the real keytar with the words gnome-keyring uses for a locked collection. The
// refresh token is read from the keychain before the service is asked, so a locked keychain
// spends nothing: the file waits saying the keyring is locked, and goes once it is unlocked.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createKeychainStore, type KeytarLike } from '../../main/core/secrets/keychain-store';
import { refreshAccount } from '../../main/core/secrets/workspace-secrets';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePort,
  openApp,
  serviceFor,
  signInAndKeep,
} from '../auth/sign-in-helpers';
import type { ReferenceService } from '../reference-service/server';

const SERVICE_NAME = `Trayshare-test-renewal-${process.pid}`;
let root: string;
let service: ReferenceService;
let app: AppService | undefined;
let clock = Date.now();
let locked = false;
// What gnome-keyring answers for a locked collection (keychain-store.test.ts).
const LOCKED = 'Cannot create an item in a locked collection';

const lockable: KeytarLike = {
  getPassword: async (s, a) => {
    if (locked) throw new Error(LOCKED);
    return keytar.getPassword(s, a);
  },
  setPassword: async (s, a, p) => {
    if (locked) throw new Error(LOCKED);
    return keytar.setPassword(s, a, p);
  },
  deletePassword: async (s, a) => {
    if (locked) throw new Error(LOCKED);
    return keytar.deletePassword(s, a);
  },
};
const secrets = createKeychainStore({
  service: SERVICE_NAME,
  keytar: lockable,
  inspect: async () => (locked ? 'locked' : 'unknown'),
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-renewal-locked-'));
  locked = false;
});
afterEach(async () => {
  locked = false;
  await app?.close();
  await service?.close();
  for (const c of await keytar.findCredentials(SERVICE_NAME))
    await keytar.deletePassword(SERVICE_NAME, c.account);
  await rm(root, { recursive: true, force: true });
});

it('a locked keychain at renewal: the file waits saying so, nothing is spent, and it goes once unlocked', async () => {
  const port = await freePort();
  service = await serviceFor(root, port, {}, () => clock);
  const opened = await openApp({ root, port, secrets, openBrowser: browser().open });
  app = opened.app;
  const signedIn = await signInAndKeep(app, { baseUrl: service.url, clientId: DEFAULT_CLIENT_ID });
  if (!signedIn.ok) throw new Error(signedIn.message);
  const id = signedIn.workspaceId;
  const refresh = (await keytar.getPassword(
    SERVICE_NAME,
    refreshAccount({ id, baseUrl: service.url }),
  ))!;

  // Queued while the keyring was open; by the time it is sent the token has expired and the
  // keyring is locked.
  await app.setPaused(true);
  const file = join(root, 'locked.txt');
  await writeFile(file, 'waits for the keyring');
  await app.share({
    target: { workspaceId: id, channels: ['C0GENERAL'] },
    paths: [file],
  });
  clock += 43_200_000 + 1;
  locked = true;
  await app.setPaused(false);
  await app.settled();
  const waiting = (await app.listQueue())[0]!;
  expect(waiting).toMatchObject({
    state: 'waiting',
    error: { class: 'credential', code: 'keychain_locked' },
  });
  expect(waiting.error?.message).toMatch(/locked/);
  expect(service.uploads()).toEqual([]);
  expect(service.refreshStatus(refresh)).toBe('current');

  // Unlocked, the next start (or `trayshare queue --run`) sends it: renewed once, delivered once.
  locked = false;
  await app.close();
  app = (await openApp({ root, port, secrets, dataDir: opened.dataDir })).app;
  await app.settled();
  expect((await app.listQueue())[0]).toMatchObject({ state: 'delivered' });
  expect(service.uploads().map((u) => u.name)).toEqual(['locked.txt']);
  expect(service.renewals()).toBe(1);
  expect(service.refreshStatus(refresh)).toBe('used');
  const now = (await keytar.getPassword(
    SERVICE_NAME,
    refreshAccount({ id, baseUrl: service.url }),
  ))!;
  expect(service.refreshStatus(now)).toBe('current');
});
