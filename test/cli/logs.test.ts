// The CLI's log (built CLI, real HTTP to the reference service, the real keychain under
// with-keyring): trayshare-cli.log in the data folder's "logs", written by every command; a
// share, a failure, a retry and a token refusal, then every log file is grepped for the token,
// the comment, the file's name and its contents. --verbose prints the same lines to stderr.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoneOf, readLogs } from '../logs/grep-logs';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const TOKEN = `xoxb-cli-logs-${randomUUID().slice(0, 8)}`;
const COMMENT = 'Comment-Hx5 about the launch, never logged';
const CONTENTS = 'Contents-Pp7 of the launch plan';
const NAMES = ['Launch-Plan-2Wd.txt', 'Launch-Retry-6Yc.txt', 'Launch-Fail-8Nm.txt'];
const PROXY_PASSWORD = 'Proxy-Pw-3Jf';
/** A password with an `@`: a user:password@ pattern stops at the first one and leaves the rest. */
const PROXY_PASSWORD_AT = 'Proxy@Tail-7Qk';
const SECRETS = [
  TOKEN,
  COMMENT,
  'Comment-Hx5',
  CONTENTS,
  'Contents-Pp7',
  PROXY_PASSWORD,
  'Tail-7Qk',
];

let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;
const logsDir = () => join(dir, 'data', 'logs');

async function file(name: string): Promise<string> {
  const folder = join(dir, 'files', randomUUID());
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), `${CONTENTS}\n`);
  return join(folder, name);
}

const send = async (name: string, extra: string[] = []) =>
  runCli(
    [
      ...extra,
      'send',
      '--workspace',
      'Acme',
      '--channels',
      'C0GENERAL',
      '--comment',
      COMMENT,
      '--json',
      await file(name),
    ],
    { env, cwd: dir },
  );

const cliLog = async () => (await readLogs(logsDir())).get('trayshare-cli.log') ?? '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-cli-logs-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: { tokens: { [TOKEN]: { user: 'U0TEST', channels: ['C0GENERAL'] } } },
  });
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
  const login = await runCli(['login', '--workspace', 'Acme', '--base-url', service.url], {
    env,
    input: `${TOKEN}\n`,
    // Away from the checkout's package.json, as an installed CLI runs.
    cwd: dir,
  });
  expect(login.code, login.stderr).toBe(0);
});

afterAll(async () => {
  await runCli(['logout', '--workspace', 'Acme'], { env, cwd: dir });
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the CLI log', () => {
  it('starts each command with its versions, never its arguments', async () => {
    expect(await cliLog()).toMatch(
      /\[info\] +Trayshare CLI \d+\.\d+\.\d+\S* started: Node \d+\.\d+\.\d+, .+; command: login\r?\n/,
    );
  });

  it('says a delivered share, a retry and why, and a failure with its reason', async () => {
    expect(jsonLines((await send(NAMES[0] as string)).stdout)).toMatchObject([
      { outcome: 'delivered' },
    ]);
    service.injectFault({ fault: { kind: 'status', status: 503, retryAfter: 1 } });
    expect(jsonLines((await send(NAMES[1] as string)).stdout)).toMatchObject([
      { outcome: 'delivered' },
    ]);
    service.injectFault({ fault: { kind: 'error', error: 'channel_not_found' } });
    const failed = await send(NAMES[2] as string);
    expect(jsonLines(failed.stdout)).toMatchObject([
      { outcome: 'failed', error: 'channel_not_found' },
    ]);
    const text = await cliLog();
    expect(text).toMatch(
      /\[info\] +Share [0-9a-f-]{8} via files\.upload, 1 file to 1 channel: 1 delivered \(a \.txt of 32 bytes\)/,
    );
    expect(text).toMatch(
      /\[warn\] +Retry: a \.txt of 32 bytes \(share [0-9a-f-]{8}, attempt 1\) tries again in 1 s after http_503 \(transient\): .*\(Retry-After\)/,
    );
    expect(text).toMatch(
      /\[warn\] +Share [0-9a-f-]{8} via files\.upload, 1 file to 1 channel: 1 failed \(a \.txt of 32 bytes: channel_not_found \(target\): /,
    );
    expect(text).toMatch(/\[warn\] +Ended with exit code 1\r?\n/);
  });

  it('says the token was refused, and --verbose prints the same lines to stderr', async () => {
    service.injectFault({ fault: { kind: 'error', error: 'token_revoked' }, times: 5 });
    const before = (await cliLog()).split(/\r?\n/).length - 1;
    const refused = await send(NAMES[0] as string, ['--verbose']);
    expect(refused.code).toBe(4);
    const added = (await cliLog()).split(/\r?\n/).slice(before, -1);
    expect(added.join('\n')).toMatch(/\[warn\] +Token refused for workspace “Acme”: /);
    // Each line of this run, as the file has it without its time stamp, is on stderr.
    const stderr = refused.stderr.split(/\r?\n/);
    expect(added.length).toBeGreaterThanOrEqual(3);
    for (const line of added) {
      expect(stderr).toContain(line.replace(/^\[[^\]]+\] /, ''));
    }
    // Results stay on stdout, alone.
    expect(jsonLines(refused.stdout)).toMatchObject([
      { outcome: 'queued', error: 'token_revoked' },
    ]);
    service.clearFaults();
  });

  it('without --verbose, prints no log line', async () => {
    const quiet = await runCli(['queue'], { env, cwd: dir });
    expect(quiet.stderr).not.toMatch(/\[(info|warn|error)\]/);
    expect(await cliLog()).toMatch(/command: queue\r?\n/);
  });

  it('send --base-url (no queue) says its outcome too', async () => {
    const direct = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--channels',
        'C0GENERAL',
        '--comment',
        COMMENT,
        await file(NAMES[0] as string),
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN }, cwd: dir },
    );
    expect(direct.code, direct.stderr).toBe(0);
    expect(await cliLog()).toMatch(
      /\[info\] +Send --base-url via files\.upload, 1 file: 1 delivered\r?\n/,
    );
  });

  it('a proxy that refuses: its scheme, host and port only, however the variables spell a password, and the network failure', async () => {
    const proxied = await runCli(
      [
        'send',
        '--workspace',
        'Acme',
        '--channels',
        'C0GENERAL',
        '--max-wait',
        '0',
        '--json',
        await file(NAMES[1] as string),
      ],
      // Port 9 (discard) on loopback: nothing listens there, so the proxy refuses at once. The
      // workspace is plain http on this machine, so HTTP_PROXY is the one used; the others are
      // the spellings proxy-from-env also takes (no scheme, no user name).
      {
        env: {
          ...env,
          HTTP_PROXY: `http://proxyuser:${PROXY_PASSWORD_AT}@127.0.0.1:9`,
          HTTPS_PROXY: `proxyuser:${PROXY_PASSWORD}@127.0.0.1:9`,
          ALL_PROXY: `http://:${PROXY_PASSWORD}@127.0.0.1:9`,
        },
        cwd: dir,
      },
    );
    expect(jsonLines(proxied.stdout)).toMatchObject([
      { outcome: 'queued', error: 'connection_refused' },
    ]);
    const text = await cliLog();
    expect(text).toContain(
      'Proxy from the environment: HTTPS_PROXY=https://127.0.0.1:9, HTTP_PROXY=http://127.0.0.1:9, ALL_PROXY=http://127.0.0.1:9',
    );
    expect(text).not.toContain('proxyuser');
    expectNoneOf([PROXY_PASSWORD, 'Tail-7Qk'], await readLogs(logsDir()));
    expect(text).toMatch(/\[warn\] +Network: connection_refused reaching 127\.0\.0\.1:\d+: /);
    expect(text).toMatch(
      /\[warn\] +Retry: a \.txt of 32 bytes .* after connection_refused \(transient\)/,
    );
  });

  it('holds no token, comment, file name or contents', async () => {
    expectNoneOf([...SECRETS, ...NAMES, 'Launch-'], await readLogs(logsDir()));
  });
});
