// A reference service and a CLI data folder with one workspace, "Acme", logged in with a token:
// what most CLI tests start from, and take down after.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { runCli } from './run-cli';

export interface AcmeWorkspace {
  service: ReferenceService;
  /** The test's folder: the service's data, the CLI's (`data`), and any files made. */
  dir: string;
  env: NodeJS.ProcessEnv;
}

export async function loggedInAcme(prefix: string): Promise<AcmeWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const service = await startReferenceService({ dataDir: join(dir, 'service') });
  const env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
  const login = await runCli(['login', '--workspace', 'Acme', '--base-url', service.url], {
    env,
    input: 'xoxb-test-token\n',
  });
  expect(login.code).toBe(0);
  return { service, dir, env };
}

/** Logs out (the token leaves the keychain), stops the service and removes the folder. */
export async function closeAcme({ service, dir, env }: AcmeWorkspace): Promise<void> {
  await runCli(['logout', '--workspace', 'Acme'], { env });
  await service.close();
  await rm(dir, { recursive: true, force: true });
}
