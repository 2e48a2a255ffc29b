// `trayshare send` end to end: the built CLI against the reference service over real HTTP.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-cli-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('trayshare send --base-url', () => {
  it('goes on when its output is closed early (`--json | head -1`): every file delivered, exit 0, no stack trace', async () => {
    const names = ['one.txt', 'two.txt', 'three.txt'];
    for (const name of names) await writeFile(join(dir, name), `${name}\n`);
    const before = service.uploads().length;
    // The reader goes away before the first result line, as `head -0` would.
    const { code, stderr } = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--channels',
        'C0GENERAL',
        '--json',
        ...names.map((n) => join(dir, n)),
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN }, closeStdout: true },
    );
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
    expect(
      service
        .uploads()
        .slice(before)
        .map((u) => u.name)
        .sort(),
    ).toEqual([...names].sort());
  });

  it('delivers two files to two channels with the comment, each once, with their exact bytes', async () => {
    const a = Buffer.alloc(300_000, 'a');
    const b = Buffer.from('second file, with ümlauts\n');
    await writeFile(join(dir, 'report.pdf'), a);
    await writeFile(join(dir, 'notes ü.txt'), b);
    const before = service.uploads().length;

    const run = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--channels',
        ' C0GENERAL, C0DESIGN,C0GENERAL',
        '--comment',
        'Weekly report',
        '--json',
        join(dir, 'report.pdf'),
        join(dir, 'notes ü.txt'),
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );

    expect(run.stderr).not.toContain(TOKEN);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(['delivered', 'delivered']);
    expect(lines.every((l) => typeof l.id === 'string' && typeof l.permalink === 'string')).toBe(
      true,
    );
    const arrived = service.uploads().slice(before);
    expect(arrived.map((u) => ({ ...u, id: undefined }))).toEqual([
      {
        id: undefined,
        name: 'report.pdf',
        size: a.length,
        sha256: sha256(a),
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: 'Weekly report',
        user: 'U0TEST',
      },
      {
        id: undefined,
        name: 'notes ü.txt',
        size: b.length,
        sha256: sha256(b),
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: null,
        user: 'U0TEST',
      },
    ]);
  });

  it('reads standard input for -, named by --filename', async () => {
    const body = Buffer.from('piped bytes\n'.repeat(1000));
    const run = await runCli(
      ['send', '--base-url', service.url, '--channels', 'C0RANDOM', '--filename', 'log.txt', '-'],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN }, input: body },
    );
    expect(run.code).toBe(0);
    const last = service.uploads().at(-1);
    expect(last).toMatchObject({ name: 'log.txt', size: body.length, sha256: sha256(body) });
  });

  it('exits non-zero and names the failure when one file of two is refused by the service; the other is delivered', async () => {
    await writeFile(join(dir, 'ok.txt'), 'fine');
    await writeFile(join(dir, 'also.txt'), 'also fine');
    const before = service.uploads().length;
    // The service refuses the first file it is sent (whichever that is) for its type.
    service.injectFault({
      method: 'files.upload',
      fault: { kind: 'error', error: 'blocked_file_type' },
    });
    const run = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--channels',
        'C0GENERAL',
        '--json',
        join(dir, 'ok.txt'),
        join(dir, 'also.txt'),
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(2);
    const failed = lines.filter((l) => l.outcome === 'failed');
    expect(failed).toEqual([expect.objectContaining({ error: 'blocked_file_type' })]);
    expect(lines.filter((l) => l.outcome === 'delivered')).toHaveLength(1);
    expect(service.uploads().length).toBe(before + 1);
  });

  describe('refuses before anything reaches the service', () => {
    const cases: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
      ['no token', [], {}, /No token: set TRAYSHARE_TOKEN/],
      [
        'a webhook URL as the token',
        [],
        { TRAYSHARE_TOKEN: 'https://hooks.slack.com/services/T000/B000/XXXX' },
        /That is a URL, not a token.*webhook/,
      ],
      [
        'an http:// base URL that is not loopback',
        ['--base-url', 'http://files.example.com'],
        { TRAYSHARE_TOKEN: TOKEN },
        /Refusing plain http to files\.example\.com/,
      ],
      [
        'a malformed channel list',
        ['--channels', 'C0GENERAL,C0 DESIGN'],
        { TRAYSHARE_TOKEN: TOKEN },
        /Channel ID "C0 DESIGN" contains a space/,
      ],
    ];
    for (const [what, extra, extraEnv, message] of cases) {
      it(what, async () => {
        await writeFile(join(dir, 'x.txt'), 'x');
        const before = service.uploads().length;
        const args = ['send', '--base-url', service.url, '--channels', 'C0GENERAL'];
        for (let i = 0; i < extra.length; i += 2) {
          const at = args.indexOf(extra[i] as string);
          args[at + 1] = extra[i + 1] as string;
        }
        const run = await runCli([...args, join(dir, 'x.txt')], { env: { ...env, ...extraEnv } });
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(message);
        expect(service.uploads().length).toBe(before);
      });
    }
  });
});
