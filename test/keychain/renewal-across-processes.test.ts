// One renewal at a time across processes (run under build/scripts/with-keyring.mjs: the real
// keychain, shared by every process as the app's and the CLI's is). Slack spends a refresh token
// when it answers, so two processes renewing with the same one would leave one holding a spent
// token: the lock file makes the second wait, read the keychain again, and take the new token.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { accessAccount, refreshAccount } from '../../main/core/secrets/workspace-secrets';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePort,
  openApp,
  serviceFor,
  signInAndKeep,
} from '../auth/sign-in-helpers';
import { runCli } from '../cli/run-cli';
import type { ReferenceService } from '../reference-service/server';

const RACER = resolve('test/auth/renew-driver.ts');
const keychain = createKeychainStore();
let root: string;
let service: ReferenceService;
let app: AppService | undefined;
let dataDir: string;
let workspaceId: string;
/** The keychain entry's workspace and origin (main/core/secrets/workspace-secrets.ts). */
const at = () => ({ id: workspaceId, baseUrl: service.url });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-renew-race-'));
  const port = await freePort();
  service = await serviceFor(root, port, { accessTokenLifetimeSeconds: 2 });
  const opened = await openApp({ root, port, secrets: keychain, openBrowser: browser().open });
  app = opened.app;
  dataDir = opened.dataDir;
  const signedIn = await signInAndKeep(app, { baseUrl: service.url, clientId: DEFAULT_CLIENT_ID });
  if (!signedIn.ok) throw new Error(signedIn.message);
  workspaceId = signedIn.workspaceId;
});
afterEach(async () => {
  await app?.close();
  await keychain.delete(accessAccount(at()));
  await keychain.delete(refreshAccount(at()));
  await service.close();
  await rm(root, { recursive: true, force: true });
});

type RaceResult = { ok: boolean; sha?: string; error?: string };

/** A racer process: `ready` once it has read the token, `result` once it has renewed. */
function racer(go: string): { ready: Promise<void>; result: Promise<RaceResult> } {
  let isReady: () => void = () => {};
  const ready = new Promise<void>((r) => {
    isReady = r;
  });
  const result = new Promise<RaceResult>((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RACER, dataDir, workspaceId, go], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.startsWith('ready\n')) isReady();
    });
    child.on('error', reject);
    child.on('close', () => {
      isReady();
      const last = out.trim().split('\n').pop() ?? '';
      done(
        last.startsWith('{') ? (JSON.parse(last) as RaceResult) : { ok: false, error: 'no output' },
      );
    });
  });
  return { ready, result };
}

it('two processes renewing the same token at once: one renewal, both end with the same new token', async () => {
  const go = join(root, 'go');
  const racers = [racer(go), racer(go)];
  await Promise.all(racers.map((r) => r.ready));
  await writeFile(go, '');
  const [a, b] = await Promise.all(racers.map((r) => r.result));
  expect(a).toMatchObject({ ok: true });
  expect(b).toMatchObject({ ok: true });
  expect(a!.sha).toBe(b!.sha);
  expect(service.renewals()).toBe(1);
  const stored = (await keychain.get(accessAccount(at())))!;
  expect(createHash('sha256').update(stored).digest('hex')).toBe(a!.sha);
  expect(service.refreshStatus((await keychain.get(refreshAccount(at())))!)).toBe('current');
});

it('the app and CLI sends with 2-second tokens at once: every file lands once and both keep working', async () => {
  const env = { TRAYSHARE_DATA_DIR: dataDir };
  const files = await Promise.all(
    ['cli-1.txt', 'cli-2.txt', 'app-1.txt'].map(async (name) => {
      const path = join(root, name);
      await writeFile(path, `contents of ${name}`);
      return path;
    }),
  );
  const send = (path: string) =>
    runCli(['send', '--workspace', 'Trayshare Reference', '--channels', 'C0GENERAL', path], {
      env,
      timeoutMs: 60_000,
    });
  const [one, two] = await Promise.all([
    send(files[0]!),
    send(files[1]!),
    app!
      .share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths: [files[2]!] })
      .then(() => app!.settled()),
  ]);
  expect(one!.code, one!.stderr).toBe(0);
  expect(two!.code, two!.stderr).toBe(0);
  expect(
    service
      .uploads()
      .map((u) => u.name)
      .sort(),
  ).toEqual(['app-1.txt', 'cli-1.txt', 'cli-2.txt']);
  expect(service.renewals()).toBeGreaterThanOrEqual(1);
  expect(service.refreshStatus((await keychain.get(refreshAccount(at())))!)).toBe('current');
  const w = (await app!.getSnapshot()).workspaces[0]!;
  expect(w.signedIn).toMatchObject({ expired: false });
  // Both still work afterwards.
  await new Promise((r) => setTimeout(r, 2100));
  expect((await send(files[0]!)).code).toBe(0);
  await app!.share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths: [files[2]!] });
  await app!.settled();
  expect(service.uploads()).toHaveLength(5);
});
