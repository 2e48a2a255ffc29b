// curl is a client nobody here wrote: if it uploads as it would to Slack and reads the same
// answers, the reference service speaks the protocol, not just our own client's dialect.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

const run = promisify(execFile);

let dir: string;
let service: ReferenceService;

async function start(config: Partial<ServiceConfig> = {}) {
  service = await startReferenceService({ dataDir: join(dir, 'data'), config });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-curl-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** curl, never through a proxy; prints the body, then a line with the status and bytes uploaded. */
async function curl(args: string[]) {
  const { stdout } = await run('curl', [
    '--silent',
    '--show-error',
    '--noproxy',
    '*',
    '--write-out',
    '\n%{http_code} %{size_upload}',
    ...args,
  ]);
  const cut = stdout.lastIndexOf('\n');
  const [status, uploaded] = stdout
    .slice(cut + 1)
    .split(' ')
    .map(Number);
  return { body: stdout.slice(0, cut), status, uploaded: uploaded ?? 0 };
}

async function fileOf(name: string, bytes: number) {
  const content = randomBytes(bytes);
  const path = join(dir, name);
  await writeFile(path, content);
  return { path, content, sha256: createHash('sha256').update(content).digest('hex') };
}

describe('curl -F against files.upload', () => {
  it('uploads a file to two channels with a comment', async () => {
    await start();
    // Over 1 MiB, so curl also waits for `100 Continue` before sending the body.
    const file = await fileOf('weekly report.pdf', 1_500_000);
    const { body, status } = await curl([
      '-F',
      `file=@${file.path}`,
      '-F',
      'channels=C0GENERAL,C0DESIGN',
      '-F',
      'initial_comment=Weekly report, v2 ✓',
      '-H',
      'Authorization: Bearer xoxb-test-token',
      `${service.url}/api/files.upload`,
    ]);
    expect(status).toBe(200);
    const answer = JSON.parse(body);
    expect(answer.ok).toBe(true);
    expect(answer.file).toMatchObject({ name: 'weekly report.pdf', size: file.content.length });

    const arrived = JSON.parse((await curl([`${service.url}/_test/uploads`])).body);
    expect(arrived).toEqual([
      {
        id: answer.file.id,
        name: 'weekly report.pdf',
        size: file.content.length,
        sha256: file.sha256,
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: 'Weekly report, v2 ✓',
        user: 'U0TEST',
      },
    ]);
  });

  it('reads Slack-style errors', async () => {
    await start();
    const file = await fileOf('a.txt', 10);
    const noToken = await curl([
      '-F',
      `file=@${file.path}`,
      '-F',
      'channels=C0GENERAL',
      `${service.url}/api/files.upload`,
    ]);
    expect([noToken.status, JSON.parse(noToken.body)]).toEqual([
      200,
      { ok: false, error: 'not_authed' },
    ]);
    const secret = await curl([
      '-F',
      `file=@${file.path}`,
      '-F',
      'channels=C0SECRET',
      '-H',
      'Authorization: Bearer xoxb-test-token',
      `${service.url}/api/files.upload`,
    ]);
    expect(JSON.parse(secret.body)).toEqual({ ok: false, error: 'not_in_channel' });
  });

  it('gets the size refusal without sending the body when it asked for 100 Continue', async () => {
    await start({ maxFileBytes: 1000 });
    const file = await fileOf('big.bin', 3_000_000);
    const result = await curl([
      '-F',
      `file=@${file.path}`,
      '-F',
      'channels=C0GENERAL',
      '-H',
      'Authorization: Bearer xoxb-test-token',
      `${service.url}/api/files.upload`,
    ]);
    expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'file_upload_size_restricted' });
    expect(result.uploaded).toBe(0);
    expect(service.uploads()).toEqual([]);
  });

  it('gets the size refusal, not a connection error, when it sends the body regardless', async () => {
    await start({ maxFileBytes: 1000 });
    const file = await fileOf('big.bin', 3_000_000);
    const result = await curl([
      '-H',
      'Expect:',
      '-F',
      `file=@${file.path}`,
      '-F',
      'channels=C0GENERAL',
      '-H',
      'Authorization: Bearer xoxb-test-token',
      `${service.url}/api/files.upload`,
    ]);
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ ok: false, error: 'file_upload_size_restricted' });
    expect(service.uploads()).toEqual([]);
  });
});
