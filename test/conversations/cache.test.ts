// The conversation cache against the reference service over real HTTP: saved in the state
// folder, fetched again when a day old, and a refused or missing method said once.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationCache, MAX_AGE_MS } from '../../main/core/conversations/conversation-cache';
import { listConversations } from '../../main/core/conversations/conversations-list';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import {
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../service/server';

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
    expect(view.problem?.message).toMatch(
      /lacks the channels:read,groups:read,mpim:read,im:read scope/,
    );
    expect(view.announce).toBe(true);
    expect((await cache.get('W1')).announce).toBe(false);
    await cache.close();
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
