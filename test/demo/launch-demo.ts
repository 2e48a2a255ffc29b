// `npm run demo`: the app against a local reference service, so a newcomer can try everything
// without an account. It starts the reference service on a free port of 127.0.0.1, prepares a
// throw-away user-data folder with a demo workspace (base URL = the service) and two presets,
// stores the demo token in the OS keychain under that workspace (never in argv, the
// environment or a file), launches Electron on that folder, and cleans everything up when the
// app quits.
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
import { confStoreFactory } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type DemoIds, seedDemo } from '../harness/seed';
import { type ReferenceService, startReferenceService } from '../service/server';

const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface Demo {
  /** The Electron user-data folder (`--user-data-dir`). */
  userDataDir: string;
  reference: ReferenceService;
  ids: DemoIds;
  /** Arguments for the Electron binary: the app folder and the user-data folder, nothing else. */
  electronArgs: string[];
  /** Stops the service, removes the token from the keychain and deletes the folders. */
  cleanup(): Promise<void>;
}

export async function prepareDemo(opts: { secrets?: SecretStore } = {}): Promise<Demo> {
  const base = await mkdtemp(join(tmpdir(), 'trayshare-demo-'));
  const userDataDir = join(base, 'user-data');
  const secrets = opts.secrets ?? createKeychainStore();
  const reference = await startReferenceService({ dataDir: join(base, 'service') });
  let ids: DemoIds | undefined;
  const cleanup = async () => {
    if (ids) await secrets.delete(ids.workspaceId).catch(() => false);
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
  const demo = await prepareDemo();
  console.log(`Reference service: ${demo.reference.url} (token in the keychain only)`);
  console.log(`Demo settings:     ${demo.userDataDir}`);
  console.log('Presets "Design review" (default) and "Random". Quit Trayshare to end the demo.');
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
