// A workspace removed by another process (the app, which shares the settings file and the
// keychain) while a `trayshare send` follows its files: they end failed as removed, as in the
// app, not held for a token. On the external protocol the share's completion reads no settings:
// the CLI learns the removal from the settings file's change event, watched while it sends.
// Over real HTTP, the built CLI; the keychain is the real Secret Service (test/with-keyring).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { openSettingsService } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;
/** Told each line the service logs (a request, a fault it injected). */
let heard: (line: string) => void = () => {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-removed-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    log: (line) => heard(line),
  });
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function files(names: string[]): Promise<string[]> {
  const paths = names.map((n) => join(dir, n));
  for (const p of paths) await writeFile(p, `${p}\n`);
  return paths;
}

/** What the app does when the person removes the workspace: its token, then the workspace. */
async function removeAsTheAppDoes(name: string): Promise<void> {
  const app = openSettingsService({
    dir: join(dir, 'data'),
    secrets: createKeychainStore(),
    transport: createNodeTransport(),
  });
  await app.removeWorkspace(app.findWorkspace(name).id);
  app.close();
}

/**
 * Holds the answer to the bytes of the first `slow` files a while: the share's completion waits
 * for them, with the workspace its files' attempts started with. Once every file's attempt has
 * started and the last of those is held, removes the workspace as the app does. The hold is long
 * enough for the app's edit to reach the CLI's watcher before the answer comes; it is not an
 * assertion of time.
 */
function removeWhileHeld(
  files: number,
  slow: number,
): { removal: () => Promise<void> | undefined } {
  service.injectFault({ method: 'upload', fault: { kind: 'slow', delayMs: 4000 }, times: slow });
  let removal: Promise<void> | undefined;
  let started = 0;
  let held = 0;
  heard = (line) => {
    if (line.endsWith('/api/files.getUploadURLExternal')) started++;
    if (line === 'upload: injected fault slow') held++;
    if (!removal && held === slow && started === files) removal = removeAsTheAppDoes('Acme');
  };
  return {
    removal: () => {
      heard = () => {};
      return removal;
    },
  };
}

const removed = (file: string) => ({
  file,
  outcome: 'failed',
  id: null,
  permalink: null,
  error: 'workspace_removed',
  message: 'The workspace of this upload was removed.',
});

describe('a workspace removed by another process while the CLI follows its files', () => {
  it('send, external protocol, files waiting for their share to complete: failed as removed, exit 1, nothing posted', async () => {
    const login = await runCli(
      ['login', '--workspace', 'Acme', '--base-url', service.url, '--protocol', 'external'],
      { env, input: 'xoxb-test-token\n' },
    );
    expect(login.code).toBe(0);
    const paths = await files(['one.txt', 'two.txt', 'three.txt']);
    const messages = service.messages().length;
    const app = removeWhileHeld(paths.length, 1);
    const send = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', ...paths],
      { env, timeoutMs: 60_000 },
    );
    const removal = app.removal();
    expect(removal).toBeDefined();
    await removal;
    expect(jsonLines(send.stdout)).toEqual(paths.map(removed));
    expect(send.stderr).not.toMatch(/token/i);
    expect(send.code).toBe(1);
    expect(service.messages().length).toBe(messages);
  }, 120_000);

  it('queue --run, finishing what a send left queued: failed as removed, nothing posted', async () => {
    service.clearFaults();
    const login = await runCli(
      ['login', '--workspace', 'Acme', '--base-url', service.url, '--protocol', 'external'],
      { env, input: 'xoxb-test-token\n' },
    );
    expect(login.code).toBe(0);
    const paths = await files(['four.txt', 'five.txt']);
    // The service asks to wait longer than the send will: its files stay queued.
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'ratelimit', retryAfter: 2 },
      times: paths.length,
    });
    const send = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--max-wait', '1', ...paths],
      { env, timeoutMs: 60_000 },
    );
    expect(send.stderr).toContain('rate limited by the service');
    expect(send.code).toBe(1);

    // The workspace's first request after the pause goes alone (a probe): the second file starts
    // once the first is uploaded, so the second's bytes are held too.
    const messages = service.messages().length;
    const app = removeWhileHeld(paths.length, 2);
    const run = await runCli(['queue', '--run'], { env, timeoutMs: 60_000 });
    const removal = app.removal();
    expect(removal).toBeDefined();
    await removal;
    const lines = run.stdout.split('\n').filter((l) => /\t(four|five)\.txt\t/.test(l));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(
        /\tfailed\t(four|five)\.txt\t.*The workspace of this upload was removed\.$/,
      );
    }
    expect(run.stderr).not.toMatch(/token/i);
    expect(service.messages().length).toBe(messages);
  }, 120_000);
});
