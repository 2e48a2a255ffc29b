// conversations.list and thread_ts over real HTTP, as a client that wrote its own requests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, json, response, send, upload } from './raw-client';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;
let clock: number;

async function start(config: Partial<ServiceConfig> = {}) {
  service = await startReferenceService({ dataDir, config, now: () => clock });
}

beforeEach(async () => {
  clock = 1_700_000_000_000;
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-conversations-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const list = (args: Record<string, string>, token?: string) =>
  callApi(service.url, 'conversations.list', args, token);

describe('conversations.list', () => {
  it('pages with limit and cursor until next_cursor is empty', async () => {
    await start();
    const ids: string[][] = [];
    let cursor = '';
    do {
      const page = json(await list({ types: 'public_channel', limit: '2', cursor }));
      expect(page.ok).toBe(true);
      ids.push((page.channels as { id: string }[]).map((c) => c.id));
      cursor = (page.response_metadata as { next_cursor: string }).next_cursor;
    } while (cursor !== '');
    // Public channels only by default; the archived one is listed unless excluded.
    expect(ids).toEqual([
      ['C0GENERAL', 'C0DESIGN'],
      ['C0RANDOM', 'C0DESIGNX'],
      ['C0DESIGNOPS', 'C0OLD'],
    ]);
  });

  it('filters by types and exclude_archived, with names, kinds and is_member', async () => {
    await start();
    const page = json(
      await list({ types: 'private_channel,im', exclude_archived: 'true', limit: '1000' }),
    );
    // C0SECRET is private and the token is not in it: invisible, as on Slack.
    expect(page.channels).toEqual([
      expect.objectContaining({ id: 'D0ALICE', is_im: true, user: 'U0ALICE' }),
    ]);
    // A DM entry has no is_member on Slack (the example answer in its conversations.list docs).
    expect(page.channels).toEqual([expect.not.objectContaining({ is_member: expect.anything() })]);
    const other = json(
      await list({ types: 'public_channel', exclude_archived: 'true' }, 'xoxb-other-token'),
    );
    const rows = other.channels as { id: string; name: string; is_member: boolean }[];
    expect(rows.find((c) => c.id === 'C0DESIGN')).toMatchObject({
      name: 'design-review',
      is_member: false,
      is_private: false,
      is_channel: true,
    });
    expect(rows.some((c) => c.id === 'C0OLD')).toBe(false);
  });

  it('answers GET with arguments in the query string', async () => {
    await start({ channels: ['C0PLAIN'], tokens: { t: { user: 'U1', channels: ['C0PLAIN'] } } });
    const got = json(
      await send(`${service.url}/api/conversations.list?limit=1`, {
        method: 'GET',
        headers: { authorization: 'Bearer t' },
      }),
    );
    // A bare ID in the config is a public channel named after itself.
    expect(got.channels).toEqual([expect.objectContaining({ id: 'C0PLAIN', name: 'C0PLAIN' })]);
  });

  it('refuses a bad cursor, unknown types and a token without the scope', async () => {
    await start({
      tokens: { 'xoxb-narrow': { user: 'U2', channels: [], scopes: ['files:write'] } },
    });
    expect(json(await list({ cursor: 'bm9wZQ==' }, 'xoxb-narrow'))).toMatchObject({
      ok: false,
      error: 'missing_scope',
      needed: 'channels:read',
      provided: 'files:write',
    });
    await service.close();
    await start();
    expect(json(await list({ cursor: 'garbage' })).error).toBe('invalid_cursor');
    expect(json(await list({ types: 'rooms' })).error).toBe('invalid_types');
    expect(json(await list({}, 'xoxb-nobody')).error).toBe('invalid_auth');
  });

  it('refuses the whole call when one asked type lacks its scope, naming that scope', async () => {
    await start({
      tokens: {
        'xoxp-no-dms': {
          user: 'U3',
          channels: ['C0GENERAL'],
          scopes: ['files:write', 'channels:read', 'groups:read'],
        },
      },
    });
    const all = { types: 'public_channel,private_channel,mpim,im' };
    const refused = response(await list(all, 'xoxp-no-dms'));
    // The body observed on Slack (getsentry/sentry PR #18317): the scope of one type, and the
    // header Slack repeats the code in.
    expect(json(refused)).toEqual({
      ok: false,
      error: 'missing_scope',
      needed: 'mpim:read',
      provided: 'files:write,channels:read,groups:read',
    });
    expect(refused.headers['x-slack-failure']).toBe('missing_scope');
    expect(json(await list({ types: 'public_channel,im' }, 'xoxp-no-dms')).needed).toBe('im:read');
    // The types it has the scopes for are listed.
    const allowed = json(await list({ types: 'public_channel,private_channel' }, 'xoxp-no-dms'));
    expect(allowed.ok).toBe(true);
    expect((allowed.channels as { id: string }[]).map((c) => c.id)).toContain('C0GENERAL');
  });

  it('leaves is_member out of an entry configured so, as some Slack entries come', async () => {
    await start({
      channels: [{ id: 'C0QUIET', name: 'quiet', omitIsMember: true }, 'C0PLAIN'],
      tokens: { t: { user: 'U1', channels: ['C0QUIET'] } },
    });
    const rows = json(await list({}, 't')).channels as Record<string, unknown>[];
    expect(rows[0]).toMatchObject({ id: 'C0QUIET', name: 'quiet' });
    expect(rows[0]).not.toHaveProperty('is_member');
    expect(rows[1]).toMatchObject({ id: 'C0PLAIN', is_member: false });
  });

  it('answers 429 with Retry-After when a test rate-limits the list', async () => {
    await start();
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'ratelimit', retryAfter: 1 },
    });
    const limited = response(await list({}));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(json(limited)).toEqual({ ok: false, error: 'ratelimited' });
    expect(json(await list({})).ok).toBe(true);
  });

  it('has its own rate limit, apart from uploads', async () => {
    await start({ listsPerMinute: 2, uploadsPerMinute: 0 });
    expect(json(await list({})).ok).toBe(true);
    expect(json(await list({})).ok).toBe(true);
    const limited = response(await list({}));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    expect(json(await upload(service.url, { channels: 'C0GENERAL' })).ok).toBe(true);
    clock += 30_000;
    expect(json(await list({})).ok).toBe(true);
  });
});

describe('thread_ts', () => {
  it('files.upload replies in a thread of one channel, and refuses two channels', async () => {
    await start();
    const parent = json(await upload(service.url, { channels: 'C0DESIGN', comment: 'Parent' }));
    expect(parent.ok).toBe(true);
    const parentTs = service.messages()[0]!.ts;
    expect(parentTs).toMatch(/^\d{10}\.\d{6}$/);
    const reply = json(
      await upload(service.url, {
        channels: 'C0DESIGN',
        extra: [{ name: 'thread_ts', value: parentTs }],
      }),
    );
    expect(reply.ok).toBe(true);
    expect(service.messages()[1]).toMatchObject({ channels: ['C0DESIGN'], thread_ts: parentTs });
    const two = json(
      await upload(service.url, {
        channels: 'C0DESIGN,C0GENERAL',
        extra: [{ name: 'thread_ts', value: parentTs }],
      }),
    );
    expect(two.error).toBe('invalid_arguments');
    expect(service.uploads()).toHaveLength(2);
  });
});
