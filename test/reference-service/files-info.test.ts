// files.info and what the reference service answers around completion, over real HTTP, with
// the shapes of Slack's docs: the method pages of files.info and files.completeUploadExternal,
// the file object (https://docs.slack.dev/reference/objects/file-object) and node-slack-sdk's
// FilesInfoResponse type (packages/web-api/src/types/response/FilesInfoResponse.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, json, multipart, send } from './raw-client';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;

async function start(config: Partial<ServiceConfig> = {}) {
  service = await startReferenceService({ dataDir, config });
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-files-info-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function uploaded(name: string, token = 'xoxb-test-token'): Promise<string> {
  const ticket = json(
    await callApi(
      service.url,
      'files.getUploadURLExternal',
      { filename: name, length: '3' },
      token,
    ),
  );
  await send(String(ticket.upload_url), {
    body: Buffer.from('abc'),
    headers: { 'content-type': 'application/octet-stream' },
  });
  return String(ticket.file_id);
}

const complete = (ids: string[], args: Record<string, string>) =>
  callApi(service.url, 'files.completeUploadExternal', {
    files: JSON.stringify(ids.map((id) => ({ id, title: `Title of ${id}` }))),
    ...args,
  });

const info = (file: string, token?: string) => callApi(service.url, 'files.info', { file }, token);

describe('files.completeUploadExternal answers as Slack documents', () => {
  it('gives id and title only by default; completionAnswer "full" adds the file object with its permalink', async () => {
    await start();
    const id = await uploaded('plan.txt');
    expect(json(await complete([id], { channel_id: 'C0GENERAL' }))).toEqual({
      ok: true,
      files: [{ id, title: `Title of ${id}` }],
    });
    await service.close();

    await start({ completionAnswer: 'full' });
    const rich = await uploaded('plan.txt');
    const answer = json(await complete([rich], { channel_id: 'C0GENERAL' }));
    expect(answer.files).toMatchObject([
      {
        id: rich,
        name: 'plan.txt',
        channels: ['C0GENERAL'],
        permalink: `${service.url}/files/U0TEST/${rich}/plan.txt`,
      },
    ]);
  });

  it('takes channel_id with thread_ts, as both SDKs send a reply, and channels of one channel with thread_ts, as the docs allow', async () => {
    await start();
    const threadTs = '1700000000.123456';
    const a = await uploaded('a.txt');
    expect(json(await complete([a], { channel_id: 'C0DESIGN', thread_ts: threadTs })).ok).toBe(
      true,
    );
    const b = await uploaded('b.txt');
    expect(json(await complete([b], { channels: 'C0DESIGN', thread_ts: threadTs })).ok).toBe(true);
    expect(service.messages().map((m) => [m.channels, m.files, m.thread_ts])).toEqual([
      [['C0DESIGN'], [a], threadTs],
      [['C0DESIGN'], [b], threadTs],
    ]);
  });

  it('refuses a repeated completion with file_not_found by default; repeatCompletion "posts-again" shares it again', async () => {
    await start();
    const once = await uploaded('once.txt');
    expect(json(await complete([once], { channel_id: 'C0GENERAL' })).ok).toBe(true);
    expect(json(await complete([once], { channel_id: 'C0GENERAL' })).error).toBe('file_not_found');
    expect(service.messages()).toHaveLength(1);
    await service.close();

    await start({ repeatCompletion: 'posts-again' });
    const twice = await uploaded('twice.txt');
    expect(json(await complete([twice], { channel_id: 'C0GENERAL' })).ok).toBe(true);
    expect(json(await complete([twice], { channel_id: 'C0GENERAL' })).ok).toBe(true);
    expect(service.messages().map((m) => m.files)).toEqual([[twice], [twice]]);
  });
});

describe('files.info', () => {
  it('with shareDelayMs lists a completed file without shares until the delay is over, as Slack may', async () => {
    await start({ shareDelayMs: 300, completionAnswer: 'full' });
    const id = await uploaded('late.txt');
    const answer = json(await complete([id], { channels: 'C0GENERAL' }));
    // The message is posted, yet neither the answer nor files.info lists the share yet.
    expect(service.messages().map((m) => m.files)).toEqual([[id]]);
    expect(answer).toMatchObject({ ok: true, files: [{ id, channels: [] }] });
    expect(json(await info(id))).toMatchObject({
      ok: true,
      file: { id, channels: [], shares: {} },
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(json(await info(id))).toMatchObject({
      file: {
        channels: ['C0GENERAL'],
        shares: { public: { C0GENERAL: [{ ts: service.messages()[0]!.ts }] } },
      },
    });
  });

  it('answers the file with its permalink and the ts of each message that carried it, public and private', async () => {
    await start();
    const id = await uploaded('report.pdf');
    expect(json(await complete([id], { channels: 'C0GENERAL,D0ALICE' })).ok).toBe(true);
    const [message] = service.messages();
    const answer = json(await info(id));
    expect(answer).toMatchObject({
      ok: true,
      comments: [],
      response_metadata: { next_cursor: '' },
      file: {
        id,
        name: 'report.pdf',
        title: `Title of ${id}`,
        mimetype: 'application/pdf',
        size: 3,
        user: 'U0TEST',
        permalink: `${service.url}/files/U0TEST/${id}/report.pdf`,
        channels: ['C0GENERAL'],
        ims: ['D0ALICE'],
        groups: [],
        shares: {
          public: {
            C0GENERAL: [{ ts: message!.ts, channel_name: 'general', share_user_id: 'U0TEST' }],
          },
          private: { D0ALICE: [{ ts: message!.ts }] },
        },
      },
    });
  });

  it('names the parent of a reply as thread_ts in its share', async () => {
    await start();
    const id = await uploaded('reply.txt');
    await complete([id], { channel_id: 'C0DESIGN', thread_ts: '1700000000.000100' });
    const file = json(await info(id)).file as { shares: { public: Record<string, unknown[]> } };
    expect(file.shares.public.C0DESIGN).toEqual([
      expect.objectContaining({ ts: service.messages()[0]!.ts, thread_ts: '1700000000.000100' }),
    ]);
  });

  it('knows a file shared through files.upload, with its message', async () => {
    await start();
    const { body, contentType } = multipart([
      { name: 'file', filename: 'legacy.txt', content: Buffer.from('old way') },
      { name: 'channels', value: 'C0RANDOM' },
    ]);
    const uploaded = json(
      await send(`${service.url}/api/files.upload`, {
        body,
        headers: { 'content-type': contentType, authorization: 'Bearer xoxb-test-token' },
      }),
    );
    const id = String((uploaded.file as { id: string }).id);
    const file = json(await info(id)).file as { shares: { public: Record<string, unknown[]> } };
    expect(file.shares.public.C0RANDOM).toEqual([
      expect.objectContaining({ ts: service.messages()[0]!.ts }),
    ]);
  });

  it('knows an upload not completed yet, with no shares', async () => {
    await start();
    const id = await uploaded('waiting.txt');
    const answer = json(await info(id));
    expect(answer.ok).toBe(true);
    expect(answer.file).toMatchObject({ id, channels: [], shares: {} });
  });

  it('takes the file in the query string of a GET, as python-slack-sdk sends it', async () => {
    await start();
    const id = await uploaded('get.txt');
    const answer = await send(`${service.url}/api/files.info?file=${id}`, {
      method: 'GET',
      headers: { authorization: 'Bearer xoxb-test-token' },
    });
    expect(json(answer).file).toMatchObject({ id });
  });

  it('refuses a token without files:read with missing_scope, naming needed and provided', async () => {
    await start({
      tokens: {
        'xoxb-test-token': { user: 'U0TEST', channels: ['C0GENERAL'] },
        'xoxb-write-only': { user: 'U0TEST', channels: ['C0GENERAL'], scopes: ['files:write'] },
      },
    });
    const id = await uploaded('secret.txt');
    expect(json(await info(id, 'xoxb-write-only'))).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'files:read',
      provided: 'files:write',
    });
  });

  it('answers file_not_found for an unknown file and for an unshared upload of someone else', async () => {
    await start();
    expect(json(await info('F0NOSUCHFILE')).error).toBe('file_not_found');
    const theirs = await uploaded('theirs.txt', 'xoxb-other-token');
    expect(json(await info(theirs)).error).toBe('file_not_found');
    expect(json(await info(theirs, 'xoxb-other-token')).ok).toBe(true);
  });
});
