// The conversation cache against the reference service over real HTTP: saved in the state
// folder, fetched again when a day old, and a refused or missing method said once.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveChannelNames } from '../../main/core/conversations/channel-names';
import { listConversations } from '../../main/core/conversations/conversations-list';
import { ConversationCache, MAX_AGE_MS } from '../../main/core/conversations/named-lists';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { unlistedMessage } from '../../main/portable/conversation-types';
import {
  defaultTestConfig,
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../reference-service/server';

let dir: string;
let service: ReferenceService;
let clock: number;
const transport = createNodeTransport();

beforeEach(async () => {
  clock = 1_700_000_000_000;
  dir = await mkdtemp(join(tmpdir(), 'trayshare-conv-cache-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function cacheFor(config: Partial<ServiceConfig> = {}, token = 'xoxb-test-token') {
  service = await startReferenceService({ dataDir: join(dir, 'service'), config });
  return new ConversationCache({
    dir: join(dir, 'state', 'conversations'),
    now: () => clock,
    fetch: (_id, signal) =>
      listConversations(service.url, token, transport, { pageSize: 3, signal }),
  });
}

describe('ConversationCache', () => {
  it('fetches all pages once, keeps them on disk, and fetches again when a day old', async () => {
    const cache = await cacheFor();
    const first = await cache.get('W1');
    // A reader is never held up: the first answer has nothing yet, the fetch runs behind it.
    expect(first.conversations).toBeUndefined();
    expect(first.refreshing).toBe(true);
    const loaded = await cache.get('W1', { wait: true });
    expect(loaded.conversations?.map((c) => c.name)).toEqual([
      'general',
      'design-review',
      'random',
      'design',
      'design-ops',
      'U0ALICE',
    ]);
    expect(await readdir(join(dir, 'state', 'conversations'))).toEqual(['W1.json']);

    // A new process reads the saved list without asking the service.
    const again = new ConversationCache({
      dir: join(dir, 'state', 'conversations'),
      now: () => clock,
      fetch: () => Promise.reject(new Error('must not fetch')),
    });
    expect((await again.get('W1')).conversations).toHaveLength(6);
    await again.close();

    clock += MAX_AGE_MS + 1;
    expect((await cache.get('W1')).refreshing).toBe(true);
    expect((await cache.get('W1', { wait: true })).fetchedAt).toBe(clock);
    await cache.close();
  });

  it('says once that the token lacks the scope, and keeps no list', async () => {
    const cache = await cacheFor(
      { tokens: { 'xoxb-narrow': { user: 'U1', channels: [], scopes: ['files:write'] } } },
      'xoxb-narrow',
    );
    const view = await cache.get('W1', { wait: true });
    expect(view.conversations).toBeUndefined();
    expect(view.problem?.code).toBe('missing_scope');
    // Each kind was asked for on its own terms, and each refusal is named.
    expect(view.problem?.message).toMatch(
      /public channels need channels:read, private channels need groups:read, group DMs need mpim:read, DMs need im:read/,
    );
    expect(view.announce).toBe(true);
    expect((await cache.get('W1')).announce).toBe(false);
    await cache.close();
  });

  it('lists the kinds the scopes allow, keeps which kinds it could not, and says so once', async () => {
    const cache = await cacheFor(
      {
        channels: [
          ...defaultTestConfig.channels,
          { id: 'G0GROUP', kind: 'mpim', name: 'mpdm-alice--bob-1' },
        ],
        tokens: {
          'xoxp-channels-only': {
            user: 'U0TEST',
            channels: ['C0GENERAL', 'C0SECRET', 'D0ALICE', 'G0GROUP'],
            scopes: ['files:write', 'channels:read', 'groups:read'],
          },
        },
      },
      'xoxp-channels-only',
    );
    const view = await cache.get('W1', { wait: true });
    expect(view.problem).toBeUndefined();
    // The private channel came (groups:read); the DM and the group DM did not.
    expect(view.conversations?.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'public:general',
      'public:design-review',
      'public:random',
      'private:secret-plans',
      'public:design',
      'public:design-ops',
    ]);
    expect(view.unlisted).toEqual([
      { kind: 'group-dm', scope: 'mpim:read' },
      { kind: 'dm', scope: 'im:read' },
    ]);
    expect(unlistedMessage(view.unlisted ?? [])).toBe(
      'Some names are not listed (group DMs need mpim:read, DMs need im:read): add the scope to the app, or use their IDs.',
    );
    expect(view.announce).toBe(true);
    expect((await cache.get('W1')).announce).toBe(false);
    // A name of the unlisted kinds is not found, and the refusal says why.
    const refused = resolveChannelNames(['@alice'], view.conversations, view.unlisted);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toBe(
      'No channel named @alice that this token can see. Not listed for this token: group DMs need mpim:read, DMs need im:read.',
    );
    await cache.close();

    // What each answer allowed is kept with the list, for the next process.
    const again = new ConversationCache({
      dir: join(dir, 'state', 'conversations'),
      now: () => clock,
      fetch: () => Promise.reject(new Error('must not fetch')),
    });
    expect((await again.get('W1')).unlisted).toEqual(view.unlisted);
    await again.close();
  });

  it('a service without conversations.list or rate limiting it is a problem, not an error', async () => {
    const cache = await cacheFor();
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'error', error: 'unknown_method' },
    });
    expect((await cache.get('W1', { wait: true })).problem?.code).toBe('unknown_method');
    await cache.close();
    await service.close();
    const limited = await cacheFor({ listsPerMinute: 1 });
    // 6 conversations at 3 a page: the second page hits the limit of one call a minute.
    expect((await limited.get('W2', { wait: true })).problem?.code).toBe('ratelimited');
    await limited.close();
  });
});
