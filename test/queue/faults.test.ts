// The queue with the real engine against the reference service's fault modes: every item ends
// as the contract says, and no file is posted twice once its body was fully received.
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QueueItem } from '../../main/core/model';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { allFinished } from './finished';
import {
  byPath,
  makeFiles,
  openRealQueue,
  postedCounts,
  type RealQueue,
  type RealQueueOptions,
  slowBodyTransport,
  TEST_TOKEN,
} from './helpers';

let root: string;
let service: ReferenceService;
let dir: string;
const opened: RealQueue[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-queue-e2e-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  await service.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  service.clearFaults();
  dir = await mkdtemp(join(root, 'case-'));
});

afterEach(async () => {
  for (const q of opened.splice(0)) await q.close();
});

async function open(opts: Partial<RealQueueOptions> = {}): Promise<RealQueue> {
  const q = await openRealQueue({ dir: join(dir, 'data'), baseUrl: service.url, ...opts });
  opened.push(q);
  return q;
}

async function shareAll(q: RealQueue, count: number, channels = ['C0GENERAL']) {
  const files = await makeFiles(join(dir, 'files'), count);
  const result = await q.queue.enqueue({
    workspaceId: 'W1',
    channels,
    comment: 'from the fault suite',
    paths: files.map((f) => f.path),
  });
  expect(result.refused).toEqual([]);
  return files;
}

/** Every state each item went through, from the change events. */
function recordStates(q: RealQueue): Map<string, QueueItem[]> {
  const seen = new Map<string, QueueItem[]>();
  q.queue.onChange((items) => {
    for (const item of items) {
      const list = seen.get(item.id) ?? [];
      if (list.at(-1)?.state !== item.state) list.push(item);
      seen.set(item.id, list);
    }
  });
  return seen;
}

describe('queue + engine + reference service: fault suite', () => {
  it('takes a mixed run of faults: each item ends as the contract says, none posted twice', async () => {
    const q = await open();
    const faults = [
      { fault: { kind: 'reset-mid-body' }, times: 2 },
      { fault: { kind: 'status', status: 503, retryAfter: 0 }, times: 2 },
      { fault: { kind: 'ratelimit', retryAfter: 1 }, times: 3 },
      { fault: { kind: 'proxy-html', status: 502 } },
      { fault: { kind: 'truncated-json' } },
      { fault: { kind: 'slow', delayMs: 200 }, times: 2 },
      { fault: { kind: 'reset-after-body' } },
      { fault: { kind: 'redirect', location: 'https://elsewhere.test/api/files.upload' } },
    ] as const;
    for (const rule of faults) service.injectFault(rule);
    const files = await shareAll(q, 13);
    await allFinished(q.queue);

    const items = byPath(q.queue.list(), files);
    const counts = postedCounts(service.uploads(), files);
    const outcome = items.map((item, i) => ({ state: item.state, posted: counts[i] }));
    // Delivered: exactly once. Unknown: the service has it once (each of those faults records).
    // Failed: only the redirect, which nothing records.
    for (const o of outcome) {
      if (o.state === 'delivered' || o.state === 'unknown') expect(o.posted).toBe(1);
      else expect(o).toEqual({ state: 'failed', posted: 0 });
    }
    const tally = (state: string) => items.filter((i) => i.state === state).length;
    expect({
      delivered: tally('delivered'),
      unknown: tally('unknown'),
      failed: tally('failed'),
    }).toEqual({
      delivered: 9,
      unknown: 3,
      failed: 1,
    });
    expect(items.filter((i) => i.state === 'unknown').map((i) => i.error?.class)).toEqual([
      'unknown-outcome',
      'unknown-outcome',
      'unknown-outcome',
    ]);
    expect(items.find((i) => i.state === 'failed')?.error).toMatchObject({
      class: 'redirect',
      location: 'https://elsewhere.test/api/files.upload',
    });
    expect(q.history.list()).toHaveLength(13);
  });

  it('reset mid-body: sends the file again, and it arrives once', async () => {
    const q = await open();
    service.injectFault({ fault: { kind: 'reset-mid-body' } });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    const [item] = byPath(q.queue.list(), files);
    expect(item).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(postedCounts(service.uploads(), files)).toEqual([1]);
  });

  it('503 with Retry-After: waits as asked, then delivers once', async () => {
    const q = await open();
    const states = recordStates(q);
    service.injectFault({ fault: { kind: 'status', status: 503, retryAfter: 1 } });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    const [item] = byPath(q.queue.list(), files);
    expect(item).toMatchObject({ state: 'delivered', attempts: 2 });
    const waiting = states.get(item!.id)!.find((s) => s.state === 'waiting');
    expect(waiting?.error?.code).toBe('http_503');
    expect(waiting!.retryAt! - waiting!.updatedAt).toBeGreaterThanOrEqual(1000);
    expect(postedCounts(service.uploads(), files)).toEqual([1]);
  });

  it('a burst of 429s pauses the workspace until Retry-After; every file arrives once', async () => {
    const q = await open();
    const states = recordStates(q);
    service.injectFault({ fault: { kind: 'ratelimit', retryAfter: 1 }, times: 4 });
    const files = await shareAll(q, 6);
    await allFinished(q.queue);
    const items = byPath(q.queue.list(), files);
    expect(items.map((i) => i.state)).toEqual(Array(6).fill('delivered'));
    expect(postedCounts(service.uploads(), files)).toEqual(Array(6).fill(1));
    const limited = [...states.values()].flat().filter((s) => s.error?.code === 'ratelimited');
    expect(limited.length).toBeGreaterThanOrEqual(1);
    for (const s of limited) expect(s.retryAt! - s.updatedAt).toBeGreaterThanOrEqual(1000);
  });

  it.each([
    ['502 HTML page from a proxy', { kind: 'proxy-html', status: 502 }, 'http_502'],
    ['truncated JSON', { kind: 'truncated-json' }, undefined],
    ['reset after the whole body', { kind: 'reset-after-body' }, undefined],
  ] as const)('%s: marked "may have been delivered", never sent again', async (_, fault, code) => {
    const q = await open();
    service.injectFault({ fault });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    const [item] = byPath(q.queue.list(), files);
    expect(item).toMatchObject({
      state: 'unknown',
      attempts: 1,
      error: { class: 'unknown-outcome' },
    });
    if (code) expect(item!.error!.code).toBe(code);
    expect(postedCounts(service.uploads(), files)).toEqual([1]);
  });

  it('a slow answer within the timeout is delivered', async () => {
    const q = await open();
    service.injectFault({ fault: { kind: 'slow', delayMs: 300 } });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), files)[0]).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(postedCounts(service.uploads(), files)).toEqual([1]);
  });

  it('an answer slower than the idle timeout: unknown, recorded once, not sent again', async () => {
    const q = await open({ idleTimeoutMs: 150 });
    service.injectFault({ fault: { kind: 'slow', delayMs: 1500 } });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), files)[0]).toMatchObject({
      state: 'unknown',
      attempts: 1,
      error: { class: 'unknown-outcome' },
    });
    expect(postedCounts(service.uploads(), files)).toEqual([1]);
  });

  it('a redirect fails the item and names where it pointed; the token is not sent there', async () => {
    const q = await open();
    service.injectFault({
      fault: { kind: 'redirect', location: 'https://moved.test/api/files.upload' },
    });
    const files = await shareAll(q, 1);
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), files)[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      error: { class: 'redirect', location: 'https://moved.test/api/files.upload' },
    });
    expect(postedCounts(service.uploads(), files)).toEqual([0]);
  });

  it('a channel the token may not post to fails only that share', async () => {
    const q = await open();
    const denied = await shareAll(q, 2, ['C0SECRET']);
    const allowedFiles = await makeFiles(join(dir, 'more'), 2);
    await q.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C0GENERAL'],
      comment: '',
      paths: allowedFiles.map((f) => f.path),
    });
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), denied).map((i) => [i.state, i.error?.class])).toEqual([
      ['failed', 'target'],
      ['failed', 'target'],
    ]);
    expect(byPath(q.queue.list(), allowedFiles).map((i) => i.state)).toEqual([
      'delivered',
      'delivered',
    ]);
    expect(postedCounts(service.uploads(), [...denied, ...allowedFiles])).toEqual([0, 0, 1, 1]);
  });

  it('a refused token stops the workspace and asks once; a new token resumes it', async () => {
    let token = 'xoxb-revoked-token';
    const q = await open({ token: () => token });
    const asked: string[] = [];
    q.queue.onNeedsToken((e) => asked.push(e.workspaceId));
    const files = await shareAll(q, 5);
    await q.queue.settled();
    expect(asked).toEqual(['W1']);
    expect(postedCounts(service.uploads(), files)).toEqual([0, 0, 0, 0, 0]);
    const waiting = q.queue.list().filter((i) => i.state === 'waiting');
    expect(waiting.length).toBeGreaterThanOrEqual(1);
    expect(waiting[0]!.error).toMatchObject({ class: 'credential', code: 'invalid_auth' });

    token = TEST_TOKEN;
    q.queue.resumeWorkspace('W1');
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), files).map((i) => i.state)).toEqual(Array(5).fill('delivered'));
    expect(postedCounts(service.uploads(), files)).toEqual([1, 1, 1, 1, 1]);
  });

  it('a file changed between queueing and sending fails with file_changed; nothing is posted', async () => {
    const q = await open({ queue: { startPaused: true } });
    const files = await shareAll(q, 1);
    await appendFile(files[0]!.path, 'edited after it was queued');
    q.queue.setPaused(false);
    await allFinished(q.queue);
    expect(byPath(q.queue.list(), files)[0]).toMatchObject({
      state: 'failed',
      error: { class: 'input', code: 'file_changed' },
    });
    expect(
      service.uploads().filter((u) => u.name === 'file-00.bin' && u.size !== files[0]!.size),
    ).toEqual([]);
    expect(postedCounts(service.uploads(), files)).toEqual([0]);
  });

  it('cancel while the body is being sent aborts the request; nothing is recorded', async () => {
    const transport = slowBodyTransport(createNodeTransport(), 50);
    const q = await open({ transport });
    const files = await makeFiles(join(dir, 'big'), 1, 4 * 1024 * 1024);
    const { items } = await q.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C0GENERAL'],
      comment: '',
      paths: [files[0]!.path],
    });
    await new Promise<void>((resolve) => {
      const off = q.queue.onChange((list) => {
        if ((list[0]?.sent ?? 0) > 0) {
          off();
          resolve();
        }
      });
    });
    await q.queue.cancel(items[0]!.id);
    expect(q.queue.list()[0]).toMatchObject({ state: 'cancelled' });
    expect(q.queue.list()[0]!.error).toBeUndefined();
    await allFinished(q.queue);
    expect(postedCounts(service.uploads(), files)).toEqual([0]);
    expect(q.history.list()[0]).toMatchObject({ outcome: 'cancelled', name: 'file-00.bin' });
  });
});
