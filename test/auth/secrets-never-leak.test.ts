// The code, the verifier and both tokens of Sign in with Slack appear in no settings or state
// file, no event or answer the window is sent, no URL the app opens or shows, and no line the
// reference service logs (service contract; issue 23: "The reliability tests that grep for the
// token today also grep for these"). Every secret that passed through is taken from the
// reference service itself, through sign-in, renewal and sign out. Files are checked at every
// write made during the test (test/helpers/written-files.ts), not only as they are at the end:
// the settings file is scrubbed of tokens when read, which would hide a token written to it.
import '../helpers/written-files';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { filesUnder } from '../cli/run-cli';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { watchWrites } from '../helpers/written-files';
import {
  defaultTestConfig,
  type ReferenceService,
  startReferenceService,
} from '../reference-service/server';
import { browser, DEFAULT_CLIENT_ID, freePort, openApp, signInAndKeep } from './sign-in-helpers';

let root: string;
let service: ReferenceService;
let app: AppService | undefined;
const serviceLog: string[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-no-leak-'));
});
afterEach(async () => {
  await app?.close();
  await service.close();
  await rm(root, { recursive: true, force: true });
});

it('sign in, renew, share, sign out: no secret in files, window messages, opened URLs or logs', async () => {
  const port = await freePort();
  service = await startReferenceService({
    dataDir: join(root, 'service'),
    log: (line) => serviceLog.push(line),
    config: {
      oauth: {
        ...defaultTestConfig.oauth,
        apps: [{ clientId: DEFAULT_CLIENT_ID, redirectUrls: [slackRedirectUri(port)] }],
        accessTokenLifetimeSeconds: 60,
      },
    },
  });
  const person = browser();
  const dataDir = join(root, 'app');
  await mkdir(dataDir);
  const written = watchWrites([dataDir]);
  const opened = await openApp({
    root,
    dataDir,
    port,
    secrets: createMemorySecretStore(),
    openBrowser: person.open,
  });
  app = opened.app;
  const told: unknown[] = [];
  for (const event of [
    'queue-changed',
    'history-changed',
    'settings-changed',
    'item-finished',
    'needs-token',
    'notice',
  ] as const) {
    app.on(event, (payload) => told.push(payload));
  }
  const signedIn = await signInAndKeep(app, { baseUrl: service.url, clientId: DEFAULT_CLIENT_ID });
  if (!signedIn.ok) throw new Error(signedIn.message);
  told.push(signedIn);
  const file = join(root, 'a.txt');
  await writeFile(file, 'a');
  // A 60-second token is renewed before use: the renewal's tokens are in the list too.
  told.push(
    await app.share({
      target: { workspaceId: signedIn.workspaceId, channels: ['C0GENERAL'] },
      paths: [file],
    }),
  );
  await app.settled();
  told.push(await app.getSnapshot(), await app.listQueue(), await app.listHistory({}));
  told.push(await app.listConversations(signedIn.workspaceId, { refresh: true, wait: true }));
  told.push(await app.signOut(signedIn.workspaceId));

  const secrets = service.signInSecrets();
  // A code, a verifier, two access tokens and two refresh tokens at least.
  expect(secrets.length).toBeGreaterThanOrEqual(6);
  expect(service.renewals()).toBe(1);
  const places: [string, string][] = [
    ['window messages', JSON.stringify(told)],
    ['opened URLs', person.opened.join('\n')],
    ['service log', serviceLog.join('\n')],
  ];
  for (const path of await filesUnder(opened.dataDir))
    places.push([path, await readFile(path, 'utf8')]);
  for (const [path, text] of written.byFile()) places.push([`${path} (as written)`, text]);
  expect(written.unseen(), 'files written where the write hook did not see').toEqual([]);
  for (const [where, text] of places) {
    for (const secret of secrets)
      expect(text.includes(secret), `${where} holds a secret`).toBe(false);
  }
});
