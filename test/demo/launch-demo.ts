// `npm run demo`: the app against a local reference service, so a newcomer can try everything
// without an account. It starts the reference service on a free port of 127.0.0.1 and a
// throw-away user-data folder, and launches Electron on that folder with the team's set-up link
// (trayshare://setup…: the service and its Slack app's client ID, public, no token), so the app
// opens on Sign in with Slack and the person signs in on the service's consent page as anyone
// would. The real-Electron tests ask instead for the token way (`how: 'token'`): a demo
// workspace and two presets, the demo token in the OS keychain (never in argv, the environment
// or a file). Everything is cleaned up when the app quits.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronBinary } from '../../build/scripts/electron-binary.mjs';
import { startProblemHere } from '../../build/scripts/electron-preflight.mjs';
import { createAppService } from '../../main/core/app-service';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import type { SecretStore } from '../../main/core/secrets/secret-store';
import { workspaceSecrets } from '../../main/core/secrets/workspace-secrets';
import { confStoreFactory } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { setupLinkFor } from '../../main/portable/setup-link';
import { type DemoIds, seedDemo } from '../harness/seed';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface Demo {
  /** The Electron user-data folder (`--user-data-dir`). */
  userDataDir: string;
  reference: ReferenceService;
  /** The seeded workspace and presets (the token way only). */
  ids: DemoIds;
  /** The set-up link the app is started with (the sign-in way only). */
  setupLink?: string;
  /**
   * Arguments for the Electron binary: the app folder, the user-data folder and, the sign-in
   * way, the set-up link; never a token.
   */
  electronArgs: string[];
  /** Stops the service, removes the token from the keychain and deletes the folders. */
  cleanup(): Promise<void>;
}

/** The sign-in way: nothing saved, the app started with the team's set-up link. */
async function prepareSignInDemo(
  secrets: SecretStore,
): Promise<Omit<Demo, 'ids'> & { setupLink: string }> {
  const base = await mkdtemp(join(tmpdir(), 'trayshare-demo-'));
  const userDataDir = join(base, 'user-data');
  // The service's Slack app (DEFAULT_CLIENT_ID) lists the redirect the app listens on.
  const reference = await startReferenceService({ dataDir: join(base, 'service') });
  const setupLink = setupLinkFor({
    baseUrl: reference.url,
    clientId: DEFAULT_CLIENT_ID,
    name: 'Reference service',
  });
  return {
    userDataDir,
    reference,
    setupLink,
    electronArgs: [projectRoot, `--user-data-dir=${userDataDir}`, setupLink],
    async cleanup() {
      // The tokens the app kept when the person signed in, under each workspace it saved.
      await forgetSignedInTokens(userDataDir, secrets).catch(() => undefined);
      await reference.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

async function forgetSignedInTokens(userDataDir: string, secrets: SecretStore): Promise<void> {
  const app = await createAppService({
    dataDir: userDataDir,
    secrets,
    transport: createNodeTransport(),
    storeFactory: confStoreFactory,
  });
  try {
    const tokens = workspaceSecrets(secrets);
    for (const w of (await app.getSnapshot()).workspaces) await tokens.forget(w);
  } finally {
    await app.close();
  }
}

export async function prepareDemo(opts?: { secrets?: SecretStore; how?: 'token' }): Promise<Demo>;
export async function prepareDemo(opts: {
  secrets?: SecretStore;
  how: 'sign-in';
}): Promise<Omit<Demo, 'ids'> & { setupLink: string }>;
export async function prepareDemo(
  opts: { secrets?: SecretStore; how?: 'token' | 'sign-in' } = {},
): Promise<Demo | (Omit<Demo, 'ids'> & { setupLink: string })> {
  if (opts.how === 'sign-in') return prepareSignInDemo(opts.secrets ?? createKeychainStore());
  const base = await mkdtemp(join(tmpdir(), 'trayshare-demo-'));
  const userDataDir = join(base, 'user-data');
  const secrets = opts.secrets ?? createKeychainStore();
  const reference = await startReferenceService({ dataDir: join(base, 'service') });
  let ids: DemoIds | undefined;
  const cleanup = async () => {
    if (ids) {
      const home = { id: ids.workspaceId, baseUrl: reference.url };
      await workspaceSecrets(secrets)
        .forget(home)
        .catch(() => false);
    }
    await reference.close();
    await rm(base, { recursive: true, force: true });
  };
  try {
    // The app's own service writes the settings (conf writes the file electron-store reads)
    // and puts the token in the keychain, exactly as the Settings page would.
    const app = await createAppService({
      dataDir: userDataDir,
      secrets,
      transport: createNodeTransport(),
      storeFactory: confStoreFactory,
    });
    try {
      ids = await seedDemo(app, reference.url);
    } finally {
      await app.close();
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return {
    userDataDir,
    reference,
    ids,
    electronArgs: [projectRoot, `--user-data-dir=${userDataDir}`],
    cleanup,
  };
}

async function main(): Promise<void> {
  // Downloaded on first use; a failed download is explained, not thrown (electron-binary.mjs).
  const electron = await ensureElectronBinary();
  if (electron.problem !== undefined) {
    console.error(electron.problem);
    process.exitCode = 1;
    return;
  }
  const binary = electron.path;
  const problem = startProblemHere(binary);
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
    return;
  }
  const demo = await prepareDemo({ how: 'sign-in' });
  console.log(`Reference service: ${demo.reference.url}`);
  console.log(`Demo settings:     ${demo.userDataDir}`);
  console.log(
    'Trayshare opens on Sign in with Slack, filled in from the set-up link: press it, then Allow in the browser tab. Quit Trayshare to end the demo.',
  );
  const child = spawn(binary, demo.electronArgs, { cwd: projectRoot, stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const code = await new Promise<number>((done) => {
    child.on('exit', (c) => done(c ?? 1));
    child.on('error', (error) => {
      console.error(`Electron did not start: ${error.message}`);
      done(1);
    });
  });
  const uploads = demo.reference.uploads();
  console.log(`The demo service received ${uploads.length} upload(s).`);
  await demo.cleanup();
  process.exitCode = code;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
