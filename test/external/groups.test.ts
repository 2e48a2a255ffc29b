// Slack's protocol shares several files as one message: 11 files are 2 messages (10 + 1), each
// with the one comment. A completion whose answer is lost leaves its whole group "may have been
// delivered", and the group is never completed twice. The built CLI, over real HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../service/server';
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
  it('shares 11 files as 2 messages (10 + 1), each with the one comment', async () => {
    const files = await elevenFiles('ok');
    const before = service.messages().length;
    const run = await send(files);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(11).fill('delivered'));
    const messages = service.messages().slice(before);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([
      [10, 'Eleven files'],
      [1, 'Eleven files'],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(11).fill(1));
  });

  it('a completion whose answer is lost leaves its group "may have been delivered", completed once', async () => {
    const files = await elevenFiles('lost');
    const before = service.messages().length;
    const completedBefore = completions();
    // The first group's completion is carried out, and its answer never arrives.
    service.injectFault({
      method: 'files.completeUploadExternal',
      fault: { kind: 'reset-after-body' },
    });
    const run = await send(files);
    expect(run.code).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual([...Array(10).fill('unknown'), 'delivered']);
    // Asked again, the service no longer knows the group's files: it was completed, once.
    expect(lines[0]!.error).toBe('completed_earlier');
    expect(
      service
        .messages()
        .slice(before)
        .map((m) => m.files.length),
    ).toEqual([10, 1]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(11).fill(1));
    // The lost one, the question that found it completed, and the second group's.
    expect(completions() - completedBefore).toBe(3);
  });
});
