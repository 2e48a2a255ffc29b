// Slack's protocol shares several files as one message: 11 files are 2 messages (10 + 1), the
// comment on the first only. Links come from files.info, as Slack's completion answer has none.
// A completion whose answer is lost is settled through files.info, and a group is never
// completed twice. The built CLI, over real HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { makeFile, sharedCounts, TOKEN } from './helpers';

let service: ReferenceService;
let dir: string;
let log: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-groups-'));
  log = [];
  service = await startReferenceService({ dataDir: join(dir, 'service'), log: (l) => log.push(l) });
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const completions = () => log.filter((l) => l === 'POST /api/files.completeUploadExternal').length;

async function elevenFiles(prefix: string) {
  const files = [];
  for (let i = 0; i < 11; i += 1)
    files.push(await makeFile(join(dir, prefix), `f${i}.txt`, 1000 + i));
  return files;
}

function send(files: { path: string }[]) {
  return runCli(
    [
      'send',
      '--base-url',
      service.url,
      '--protocol',
      'external',
      '--channels',
      'C0DESIGN',
      '--comment',
      'Eleven files',
      '--json',
      ...files.map((f) => f.path),
    ],
    { env: { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_TOKEN: TOKEN } },
  );
}

describe('several files in one message through the external protocol', () => {
  it('shares 11 files as 2 messages (10 + 1), the comment once, on the first, as send --help says', async () => {
    const files = await elevenFiles('ok');
    const before = service.messages().length;
    const run = await send(files);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(Array(11).fill('delivered'));
    const messages = service.messages().slice(before);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([
      [10, 'Eleven files'],
      [1, null],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(11).fill(1));
    // send --json prints each file's link, which Slack's completion answer does not carry.
    for (const [i, line] of lines.entries()) {
      expect(line.permalink).toBe(`${service.url}/files/U0TEST/${line.id}/f${i}.txt`);
    }
    const help = await runCli(['send', '--help']);
    expect(help.stdout).toMatch(/comment posted once, with the first file/);
  });

  it('a token without files:read: delivered without links, and stderr says once that links need files:read', async () => {
    const scoped = await startReferenceService({
      dataDir: join(dir, 'scoped'),
      config: {
        tokens: {
          [TOKEN]: { user: 'U0TEST', channels: ['C0DESIGN'], scopes: ['files:write'] },
        },
      },
    });
    try {
      const files = await elevenFiles('scoped');
      const run = await runCli(
        [
          'send',
          '--base-url',
          scoped.url,
          '--protocol',
          'external',
          '--channels',
          'C0DESIGN',
          '--json',
          ...files.map((f) => f.path),
        ],
        { env: { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_TOKEN: TOKEN } },
      );
      expect(run.code).toBe(0);
      const lines = jsonLines(run.stdout);
      expect(lines.map((l) => [l.outcome, l.permalink])).toEqual(
        Array(11).fill(['delivered', null]),
      );
      expect(run.stderr.match(/files:read/g)).toHaveLength(1);
    } finally {
      await scoped.close();
    }
  });

  it('a token without files:read and a lost completion answer: "may have been delivered", and no notice that the files were shared', async () => {
    const scoped = await startReferenceService({
      dataDir: join(dir, 'scoped-lost'),
      config: {
        tokens: {
          [TOKEN]: { user: 'U0TEST', channels: ['C0DESIGN'], scopes: ['files:write'] },
        },
      },
    });
    try {
      scoped.injectFault({
        method: 'files.completeUploadExternal',
        fault: { kind: 'reset-after-body' },
      });
      const file = await makeFile(join(dir, 'scoped-lost'), 'unknown.txt', 900);
      const run = await runCli(
        [
          'send',
          '--base-url',
          scoped.url,
          '--protocol',
          'external',
          '--channels',
          'C0DESIGN',
          '--json',
          file.path,
        ],
        { env: { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_TOKEN: TOKEN } },
      );
      const [line] = jsonLines(run.stdout);
      expect(line).toMatchObject({
        outcome: 'unknown',
        message: expect.stringMatching(/files:read/),
      });
      expect(run.stderr).not.toMatch(/were shared|Links to shared files/);
    } finally {
      await scoped.close();
    }
  });

  it('a completion whose answer is lost: files.info shows the message, so its group is delivered, completed once', async () => {
    const files = await elevenFiles('lost');
    const before = service.messages().length;
    const completedBefore = completions();
    // The first group's completion is carried out, and its answer never arrives.
    service.injectFault({
      method: 'files.completeUploadExternal',
      fault: { kind: 'reset-after-body' },
    });
    const run = await send(files);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(Array(11).fill('delivered'));
    expect(lines.every((l) => typeof l.permalink === 'string')).toBe(true);
    expect(
      service
        .messages()
        .slice(before)
        .map((m) => m.files.length),
    ).toEqual([10, 1]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(11).fill(1));
    // The lost one and the second group's: files.info, not a second completion, settled the first.
    expect(completions() - completedBefore).toBe(2);
  });
});
