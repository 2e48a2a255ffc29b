// Slack's own Node SDK is a client nobody here wrote: pointed at the reference service, its
// files.upload and filesUploadV2 (the external protocol) must work as they do against Slack.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from './server';

let dir: string;
let service: ReferenceService;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-sdk-'));
  service = await startReferenceService({ dataDir: join(dir, 'data') });
});

afterEach(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

function client(token = 'xoxb-test-token', options: { rejectRateLimitedCalls?: boolean } = {}) {
  return new WebClient(token, {
    slackApiUrl: `${service.url}/api/`,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
    ...options,
  });
}

async function fileOf(name: string, bytes: number) {
  const content = randomBytes(bytes);
  const path = join(dir, name);
  await writeFile(path, content);
  return { path, content, sha256: createHash('sha256').update(content).digest('hex') };
}

describe('@slack/web-api against the reference service', () => {
  it('files.upload with a file stream', async () => {
    const file = await fileOf('notes.txt', 200_000);
    const result = await client().files.upload({
      channels: 'C0GENERAL,C0DESIGN',
      file: createReadStream(file.path),
      filename: 'notes.txt',
      initial_comment: 'From the SDK',
    });
    expect(result.ok).toBe(true);
    expect(result.file?.name).toBe('notes.txt');
    expect(service.uploads()).toEqual([
      {
        id: result.file?.id,
        name: 'notes.txt',
        size: file.content.length,
        sha256: file.sha256,
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: 'From the SDK',
        user: 'U0TEST',
      },
    ]);
  });

  it('filesUploadV2 goes through the external protocol and shares each file once', async () => {
    const a = await fileOf('a.txt', 30_000);
    const b = await fileOf('b.png', 70_000);
    const result = await client().filesUploadV2({
      channel_id: 'C0RANDOM',
      initial_comment: 'Two files, one message',
      file_uploads: [
        { file: a.path, filename: 'a.txt' },
        { file: createReadStream(b.path), filename: 'b.png', title: 'Picture B' },
      ],
    });
    expect(result.ok).toBe(true);
    const arrived = service.uploads();
    expect(arrived.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        name: 'a.txt',
        size: a.content.length,
        sha256: a.sha256,
        channels: ['C0RANDOM'],
        initial_comment: 'Two files, one message',
        user: 'U0TEST',
      },
      {
        name: 'b.png',
        size: b.content.length,
        sha256: b.sha256,
        channels: ['C0RANDOM'],
        initial_comment: 'Two files, one message',
        user: 'U0TEST',
      },
    ]);
  });

  it("conversations.list's paginator walks every page with names and membership", async () => {
    const seen: { id: string; name?: string; is_member?: boolean }[] = [];
    let pages = 0;
    for await (const page of client().paginate('conversations.list', {
      types: 'public_channel,private_channel,im',
      exclude_archived: true,
      limit: 2,
    })) {
      pages += 1;
      const channels = (page as { channels?: typeof seen }).channels ?? [];
      seen.push(...channels.map(({ id, name, is_member }) => ({ id, name, is_member })));
    }
    // 6 visible (the archived one and the private one the token is not in are left out): 3 pages.
    expect(pages).toBe(3);
    expect(seen).toEqual([
      { id: 'C0GENERAL', name: 'general', is_member: true },
      { id: 'C0DESIGN', name: 'design-review', is_member: true },
      { id: 'C0RANDOM', name: 'random', is_member: true },
      { id: 'C0DESIGNX', name: 'design', is_member: true },
      { id: 'C0DESIGNOPS', name: 'design-ops', is_member: false },
      // Slack's DM entries carry no is_member (its conversations.list example answer).
      { id: 'D0ALICE', name: undefined, is_member: undefined },
    ]);
  });

  it('filesUploadV2 with several files and thread_ts replies in the thread as one message', async () => {
    const parent = await fileOf('parent.txt', 10);
    await client().files.upload({
      channels: 'C0DESIGN',
      file: createReadStream(parent.path),
      filename: 'parent.txt',
    });
    const [parentMessage] = service.messages();
    const a = await fileOf('a.txt', 3000);
    const b = await fileOf('b.txt', 4000);
    const result = await client().filesUploadV2({
      channel_id: 'C0DESIGN',
      thread_ts: parentMessage!.ts,
      initial_comment: 'Replies',
      file_uploads: [
        { file: a.path, filename: 'a.txt' },
        { file: b.path, filename: 'b.txt' },
      ],
    });
    expect(result.ok).toBe(true);
    const reply = service.messages()[1]!;
    expect(reply).toMatchObject({
      channels: ['C0DESIGN'],
      initial_comment: 'Replies',
      thread_ts: parentMessage!.ts,
    });
    expect(reply.files).toHaveLength(2);
    expect(service.uploads().filter((u) => u.thread_ts === parentMessage!.ts)).toHaveLength(2);
  });

  it('filesUploadV2 with 14 files shares them as one message, as Slack was seen to accept', async () => {
    // python-slack-sdk#1653: Slack took 14 files in one files.completeUploadExternal.
    const uploads = [];
    for (let i = 0; i < 14; i += 1) uploads.push(await fileOf(`many-${i}.txt`, 100 + i));
    const result = await client().filesUploadV2({
      channel_id: 'C0DESIGN',
      initial_comment: 'Fourteen',
      file_uploads: uploads.map((u, i) => ({ file: u.path, filename: `many-${i}.txt` })),
    });
    expect(result.ok).toBe(true);
    expect(service.messages().map((m) => [m.files.length, m.initial_comment])).toEqual([
      [14, 'Fourteen'],
    ]);
  });

  it('sees Slack errors as platform errors with the code', async () => {
    const file = await fileOf('a.txt', 10);
    await expect(
      client().files.upload({
        channels: 'C0SECRET',
        file: createReadStream(file.path),
        filename: 'a.txt',
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { ok: false, error: 'not_in_channel' },
    });
    await expect(client('xoxb-nobody').auth.test()).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { error: 'invalid_auth' },
    });
    expect(service.uploads()).toEqual([]);
  });

  it('reads the rate limit and its Retry-After', async () => {
    service.injectFault({ fault: { kind: 'ratelimit', retryAfter: 3 } });
    const file = await fileOf('a.txt', 10);
    await expect(
      client('xoxb-test-token', { rejectRateLimitedCalls: true }).files.upload({
        channels: 'C0GENERAL',
        file: createReadStream(file.path),
        filename: 'a.txt',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 3 });
  });

  it('auth.test answers for a valid token', async () => {
    const result = await client().auth.test();
    expect(result).toMatchObject({ ok: true, user_id: 'U0TEST', team_id: 'T0REFERENCE' });
  });
});
