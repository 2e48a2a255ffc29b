// People on the reference service over real HTTP: users.list as Slack answers it, and a user ID
// among the `channels` of both upload protocols posting to the DM with that person.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, json, response, send, upload } from './raw-client';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;

async function start(config: Partial<ServiceConfig> = {}) {
  service = await startReferenceService({ dataDir, config });
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-people-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const usersList = (args: Record<string, string>, token?: string) =>
  callApi(service.url, 'users.list', args, token);

async function externalShare(args: Record<string, string>, token = 'xoxb-test-token') {
  const content = Buffer.from('for you\n');
  const got = json(
    await callApi(
      service.url,
      'files.getUploadURLExternal',
      { filename: 'note.txt', length: String(content.length) },
      token,
    ),
  );
  const sent = response(
    await send(String(got.upload_url), {
      body: content,
      headers: { 'content-type': 'application/octet-stream' },
    }),
  );
  expect(sent.status).toBe(200);
  return json(
    await callApi(
      service.url,
      'files.completeUploadExternal',
      { files: JSON.stringify([{ id: String(got.file_id) }]), ...args },
      token,
    ),
  );
}

describe('users.list', () => {
  it('pages with limit and cursor, every member with Slack’s fields, deleted ones too', async () => {
    await start();
    const pages: Record<string, unknown>[][] = [];
    let cursor = '';
    do {
      const page = json(await usersList({ limit: '4', cursor }));
      expect(page.ok).toBe(true);
      pages.push(page.members as Record<string, unknown>[]);
      cursor = (page.response_metadata as { next_cursor: string }).next_cursor;
    } while (cursor !== '');
    expect(pages.map((p) => p.map((m) => m.id))).toEqual([
      ['U0TEST', 'U0OTHER', 'U0ALICE', 'U0BOB'],
      ['U0GONE', 'USLACKBOT'],
    ]);
    const bob = pages[0]![3]!;
    expect(bob).toMatchObject({
      id: 'U0BOB',
      name: 'bob.builder',
      real_name: 'Bob Builder',
      deleted: false,
      is_bot: false,
      profile: { display_name: 'Bobby', real_name: 'Bob Builder' },
    });
    expect(pages[1]![0]).toMatchObject({ id: 'U0GONE', deleted: true });
    // No limit: the whole set in one answer, as Slack's docs say.
    const all = json(await usersList({}));
    expect((all.members as unknown[]).length).toBe(6);
    expect(all.response_metadata).toEqual({ next_cursor: '' });
  });

  it('needs users:read, and refuses a cursor it did not give', async () => {
    await start({
      tokens: { narrow: { user: 'U0TEST', channels: [], scopes: ['files:write', 'im:read'] } },
    });
    expect(json(await usersList({}, 'narrow'))).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'users:read',
      provided: 'files:write,im:read',
    });
    await service.close();
    await start();
    expect(json(await usersList({ cursor: 'bm9wZQ==' })).error).toBe('invalid_cursor');
  });
});

describe('a user ID as a destination', () => {
  it('files.upload to U0ALICE posts in the existing DM with Alice', async () => {
    await start();
    const answer = json(await upload(service.url, { channels: 'U0ALICE', comment: 'hi' }));
    expect(answer.ok).toBe(true);
    expect((answer.file as { channels: string[] }).channels).toEqual(['D0ALICE']);
    expect(service.messages().map((m) => m.channels)).toEqual([['D0ALICE']]);
  });

  it('files.upload to a person with no DM yet opens one, listed afterwards by conversations.list', async () => {
    await start();
    const answer = json(await upload(service.url, { channels: 'C0GENERAL,U0BOB' }));
    expect(answer.ok).toBe(true);
    const [general, dm] = (answer.file as { channels: string[] }).channels;
    expect(general).toBe('C0GENERAL');
    expect(dm).toMatch(/^D[A-Z0-9]+$/);
    // The second share to Bob goes to the same DM.
    const again = json(await upload(service.url, { channels: 'U0BOB' }));
    expect((again.file as { channels: string[] }).channels).toEqual([dm]);
    const ims = json(await callApi(service.url, 'conversations.list', { types: 'im' }));
    expect(ims.channels).toEqual(
      expect.arrayContaining([
        // Slack's DM entries carry no is_member.
        expect.objectContaining({ id: dm, is_im: true, user: 'U0BOB' }),
      ]),
    );
    // Someone else's share to Bob is not in that DM.
    const other = json(await upload(service.url, { channels: 'U0BOB', token: 'xoxb-other-token' }));
    expect((other.file as { channels: string[] }).channels[0]).not.toBe(dm);
  });

  it('files.completeUploadExternal takes user IDs in channels, not in channel_id', async () => {
    await start();
    const shared = await externalShare({ channels: 'U0ALICE,U0BOB', initial_comment: 'both' });
    expect(shared.ok).toBe(true);
    const message = service.messages()[0]!;
    expect(message.channels[0]).toBe('D0ALICE');
    expect(message.channels[1]).toMatch(/^D/);
    expect(message.initial_comment).toBe('both');
    expect(await externalShare({ channel_id: 'U0ALICE' })).toEqual({
      ok: false,
      error: 'invalid_arguments',
    });
  });

  it('an unknown or deactivated person is channel_not_found, and nothing is posted', async () => {
    await start();
    expect(json(await upload(service.url, { channels: 'U0NOBODY' })).error).toBe(
      'channel_not_found',
    );
    expect((await externalShare({ channels: 'U0GONE' })).error).toBe('channel_not_found');
    expect(service.messages()).toEqual([]);
  });
});
