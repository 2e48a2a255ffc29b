// The external protocol end to end through the built CLI: `send --base-url … --protocol
// external` for scripts, and saved workspaces (`login --protocol external`) through the durable
// queue; a service without files.upload says how to switch. Uses the keychain for `login`:
// run under test/with-keyring.sh (npm test does).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueItem } from '../../main/core/model';
import { filesUnder, jsonLines, runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { CHANNELS, calls, makeFile, sharedCounts, type TestFile, TOKEN } from './helpers';

let dir: string;
let service: ReferenceService;
let log: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-external-cli-'));
  log = [];
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    log: (line) => log.push(line),
  });
});

afterEach(() => {
  service.clearFaults();
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function twoFiles(prefix: string): Promise<TestFile[]> {
  return [
    await makeFile(join(dir, prefix), 'Quarterly report.pdf', 2 * 1024 * 1024 + 17),
    await makeFile(join(dir, prefix), 'notes ü.txt', 3000),
  ];
}

/** `oneMessage`: shared together (the script mode groups them); else one message per file. */
function expectSharedOnce(files: TestFile[], comment: string, oneMessage = false): void {
  expect(sharedCounts(service.uploads(), files)).toEqual([1, 1]);
  // One message carries the comment once; one message per file puts it on the first only.
  for (const [i, f] of files.entries()) {
    expect(service.uploads().find((u) => u.sha256 === f.sha256)).toMatchObject({
      name: f.name,
      size: f.size,
      channels: CHANNELS,
      initial_comment: oneMessage || i === 0 ? comment : null,
      user: 'U0TEST',
    });
  }
}

describe('trayshare send --base-url --protocol external', () => {
  const env = () => ({ TRAYSHARE_DATA_DIR: join(dir, 'script-data'), TRAYSHARE_TOKEN: TOKEN });

  it('delivers two files to three channels with the comment, each once, in three steps', async () => {
    const files = await twoFiles('script');
    const from = log.length;
    const run = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--protocol',
        'external',
        '--channels',
        CHANNELS.join(','),
        '--comment',
        'Numbers for Q3',
        '--json',
        ...files.map((f) => f.path),
      ],
      { env: env() },
    );
    expect(run.stderr).not.toContain(TOKEN);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(['delivered', 'delivered']);
    expect(lines.every((l) => typeof l.id === 'string' && typeof l.permalink === 'string')).toBe(
      true,
    );
    expectSharedOnce(files, 'Numbers for Q3', true);
    expect(service.messages().at(-1)?.files).toHaveLength(2);
    const made = log.slice(from);
    expect(calls(made, 'files.getUploadURLExternal')).toBe(2);
    // Both files in one completion: one message.
    expect(calls(made, 'files.completeUploadExternal')).toBe(1);
    expect(calls(made, 'files.upload')).toBe(0);
  });

  it('retries a refused step 3 on its own and shares once', async () => {
    const file = await makeFile(join(dir, 'script'), 'retry.bin');
    service.injectFault({
      method: 'files.completeUploadExternal',
      fault: { kind: 'status', status: 503, retryAfter: 1 },
    });
    const from = log.length;
    const run = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--protocol',
        'external',
        '--channels',
        'C0RANDOM',
        file.path,
      ],
      { env: env() },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Trying again/);
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
    // The bytes went once: the retry went on from the same file_id.
    expect(calls(log.slice(from), 'files.getUploadURLExternal')).toBe(1);
  });

  it('tells a script to use --protocol external when files.upload is retired', async () => {
    const file = await makeFile(join(dir, 'script'), 'legacy.bin');
    service.injectFault({
      method: 'files.upload',
      fault: { kind: 'error', error: 'method_deprecated' },
    });
    const args = ['send', '--base-url', service.url, '--channels', 'C0RANDOM', file.path];
    const run = await runCli(args, { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no longer offers files\.upload/);
    expect(run.stderr).toMatch(/--protocol external/);
    expect(sharedCounts(service.uploads(), [file])).toEqual([0]);

    const again = await runCli([...args, '--protocol', 'external'], { env: env() });
    expect(again.code).toBe(0);
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
  });

  it('refuses --protocol without --base-url and an unknown protocol, sending nothing', async () => {
    const file = await makeFile(join(dir, 'script'), 'nothing.bin');
    const before = service.uploads().length;
    const withPreset = await runCli(
      ['send', '--preset', 'Any', '--protocol', 'external', file.path],
      { env: env() },
    );
    expect(withPreset.code).toBe(2);
    expect(withPreset.stderr).toMatch(/--protocol goes with --base-url/);
    const unknown = await runCli(
      ['send', '--base-url', service.url, '--protocol', 'ftp', '--channels', 'C0RANDOM', file.path],
      { env: env() },
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/files\.upload or external/);
    expect(service.uploads().length).toBe(before);
  });
});

describe('saved workspaces keep their protocol (through the queue)', () => {
  const dataDir = () => join(dir, 'saved-data');
  const env = () => ({ TRAYSHARE_DATA_DIR: dataDir() });

  afterAll(async () => {
    for (const name of ['Acme', 'Legacy'])
      await runCli(['logout', '--workspace', name], { env: env() });
  });

  it('login --protocol external, then send --workspace: two files, three channels, once each, one message', async () => {
    const login = await runCli(
      ['login', '--workspace', 'Acme', '--base-url', service.url, '--protocol', 'external'],
      { env: env(), input: `${TOKEN}\n` },
    );
    expect(login.code).toBe(0);
    const files = await twoFiles('saved');
    const from = log.length;
    const send = await runCli(
      [
        'send',
        '--workspace',
        'Acme',
        '--channels',
        CHANNELS.join(','),
        '--comment',
        'Through the queue',
        '--json',
        ...files.map((f) => f.path),
      ],
      { env: env() },
    );
    expect(send.code).toBe(0);
    expect(jsonLines(send.stdout).map((l) => l.outcome)).toEqual(['delivered', 'delivered']);
    // Each line has its file's link, from files.info (the completion's answer has none).
    for (const line of jsonLines(send.stdout)) {
      expect(line.permalink).toBe(
        `${service.url}/files/U0TEST/${line.id}/${encodeURIComponent(basename(String(line.file)))}`,
      );
    }
    // The queue completes the share's files together: one message, the comment once.
    expectSharedOnce(files, 'Through the queue', true);
    expect(calls(log.slice(from), 'files.completeUploadExternal')).toBe(1);
    expect(calls(log.slice(from), 'files.upload')).toBe(0);

    // The journal holds where each upload got to, never the token.
    for (const f of await filesUnder(dataDir())) {
      expect((await readFile(f)).includes(TOKEN), f).toBe(false);
    }
  });

  it('a saved files.upload workspace meets a retired files.upload: switch the protocol, retry, delivered once', async () => {
    await runCli(['login', '--workspace', 'Legacy', '--base-url', service.url], {
      env: env(),
      input: `${TOKEN}\n`,
    });
    const file = await makeFile(join(dir, 'saved'), 'legacy.bin');
    service.injectFault({
      method: 'files.upload',
      fault: { kind: 'error', error: 'unknown_method' },
    });
    const send = await runCli(
      ['send', '--workspace', 'Legacy', '--channels', 'C0GENERAL', file.path],
      { env: env() },
    );
    expect(send.code).toBe(1);
    expect(send.stderr).toMatch(/Legacy no longer offers files\.upload/);
    expect(send.stderr).toMatch(/external/);

    const queue = await runCli(['queue', '--json'], { env: env() });
    const item = (JSON.parse(queue.stdout) as QueueItem[]).find((i) => i.name === 'legacy.bin');
    expect(item).toMatchObject({
      state: 'failed',
      error: { class: 'retired', code: 'unknown_method' },
    });

    const relogin = await runCli(['login', '--workspace', 'Legacy', '--protocol', 'external'], {
      env: env(),
      input: `${TOKEN}\n`,
    });
    expect(relogin.code).toBe(0);
    const retry = await runCli(['queue', '--retry', item!.id, '--json'], { env: env() });
    expect(retry.code).toBe(0);
    const after = (JSON.parse(retry.stdout) as QueueItem[]).find((i) => i.id === item!.id);
    expect(after?.state).toBe('delivered');
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
  });
});
