// `npx tsx bench/sign-in-timing.ts`: how long Sign in with Slack and a token renewal take against the
// reference service on loopback, the person's click included as an immediate fetch (so the
// figures are Trayshare's own work: listener, exchange, auth.test, keychain, settings). Printed
// as figures, never asserted (speed goes here, not in tests). Keychain: in memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openRenewal } from '../main/core/auth/renewal';
import { accessAccount } from '../main/core/secrets/workspace-secrets';
import { createNodeTransport } from '../main/core/upload/node-transport';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePort,
  openApp,
  serviceFor,
  signInAndKeep,
} from '../test/auth/sign-in-helpers';
import { createMemorySecretStore } from '../test/harness/memory-secrets';

const ROUNDS = Number(process.argv[2] ?? 30);
const root = await mkdtemp(join(tmpdir(), 'trayshare-bench-sign-in-'));
const port = await freePort();
const service = await serviceFor(root, port);
const secrets = createMemorySecretStore();
const { app, dataDir } = await openApp({ root, port, secrets, openBrowser: browser().open });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

const signIns: number[] = [];
let workspaceId = '';
for (let i = 0; i < ROUNDS; i += 1) {
  const start = performance.now();
  const result = await signInAndKeep(app, {
    baseUrl: service.url,
    clientId: DEFAULT_CLIENT_ID,
    ...(workspaceId ? { workspaceId } : {}),
  });
  signIns.push(performance.now() - start);
  if (!result.ok) throw new Error(result.message);
  workspaceId = result.workspaceId;
}

const renewal = openRenewal({
  secrets,
  transport: createNodeTransport(),
  workspace: () => undefined,
  setTokenExpiry: () => {},
  lockDir: dataDir,
});
const workspace = (await app.getSnapshot()).workspaces[0]!;
const renewals: number[] = [];
for (let i = 0; i < ROUNDS; i += 1) {
  const stale = (await secrets.get(accessAccount(workspace)))!;
  const start = performance.now();
  await renewal.renew(workspace, stale);
  renewals.push(performance.now() - start);
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
process.stdout.write(
  `Sign in with Slack, ${ROUNDS} rounds on loopback (click to "Signed in"): median ${fmt(median(signIns))}, p90 ${fmt(p90(signIns))}\n` +
    `Renewal incl. lock file and keychain writes, ${ROUNDS} rounds: median ${fmt(median(renewals))}, p90 ${fmt(p90(renewals))}\n`,
);
await app.close();
await service.close();
await rm(root, { recursive: true, force: true });
