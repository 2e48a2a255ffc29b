import { cp, mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allFinished,
  delivered,
  type FakeQueue,
  type FakeQueueOptions,
  failure,
  openFakeQueue,
  useQueueTestDirs,
  waitFor,
  workspacesNeedingToken,
} from '../../../test/queue/kit';
import { parseJsonl } from '../history/jsonl-file';
import type { QueueItem } from '../model';
import { SLOT_BYTES } from '../upload/external/byte-budget';
import { JOURNAL_FILE } from './journal';
import { QueueLockedError } from './queue-lock';
import { openUploadQueue, type UploadQueue } from './upload-queue';

const dirs = useQueueTestDirs('trayshare-queue-');

/** Small files, or files of `size` bytes (sparse: a slot's worth costs no disk). */
async function files(count: number, prefix = 'file', size?: number): Promise<string[]> {
  const dir = join(dirs.root, 'files');
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${prefix}-${String(i).padStart(2, '0')}.txt`);
    await writeFile(path, `contents of ${prefix} ${i}\n`);
    if (size !== undefined) await truncate(path, size);
    paths.push(path);
  }
  return paths;
}

/** Files of a whole slot (8 MiB): the concurrency setting's N of them go at once. */
const largeFiles = (count: number, prefix = 'large') => files(count, prefix, SLOT_BYTES);

const setup = (opts: FakeQueueOptions = {}): Promise<FakeQueue> =>
  openFakeQueue(dirs, {
    concurrency: () => 3,
    maxFileBytes: () => 2 * SLOT_BYTES,
    workspaceName: (id) => `Team ${id}`,
    ...opts,
  });

const stateOf = (queue: UploadQueue, id: string) => queue.list().find((i) => i.id === id)?.state;
const itemOf = (queue: UploadQueue, id: string): QueueItem => {
  const item = queue.list().find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  return item;
};

async function journalRecords(dir: string): Promise<Record<string, unknown>[]> {
  return parseJsonl(await readFile(join(dir, JOURNAL_FILE), 'utf8')).values as Record<
    string,
    unknown
  >[];
}

describe('upload queue: scheduling', () => {
  it('journals an item before its first byte is sent', async () => {
    const { queue, fake, dir } = await setup();
    const [path] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: 'hello',
      paths: [path!],
    });
    const first = await fake.attempt(0);
    const onDisk = await journalRecords(dir);
    expect(onDisk).toContainEqual(
      expect.objectContaining({ t: 'add', item: expect.objectContaining({ id: items[0]!.id }) }),
    );
    expect(first.item).toMatchObject({
      id: items[0]!.id,
      path,
      channels: ['C1'],
      comment: 'hello',
    });
  });

  it('runs items first in, first out, within the byte budget per workspace: large files N at once, small ones at most 10 x N', async () => {
    const { queue, fake } = await setup({ concurrency: () => 2 });
    const paths = await largeFiles(5);
    const other = await files(25, 'other');
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });
    const { items: otherItems } = await queue.enqueue({
      workspaceId: 'W2',
      channels: ['C9'],
      comment: '',
      paths: other,
    });

    // Two slots: two of W1's large files, and twenty of W2's small ones (a tenth of a slot each,
    // ten to a slot): the budget is per workspace.
    const inFlightOf = (ws: string) =>
      fake
        .inFlight()
        .filter((a) => a.item.workspaceId === ws)
        .map((a) => a.item.id);
    expect(inFlightOf('W1')).toEqual([items[0]!.id, items[1]!.id]);
    expect(inFlightOf('W2')).toEqual(otherItems.slice(0, 20).map((i) => i.id));
    const bytesInFlight = (ws: string) =>
      fake
        .inFlight()
        .filter((a) => a.item.workspaceId === ws)
        .reduce((sum, a) => sum + a.item.size, 0);
    expect(bytesInFlight('W1')).toBe(2 * SLOT_BYTES);
    fake.started[1]!.answer(delivered('F2'));
    await waitFor(() => inFlightOf('W1').length === 2, 'the next large file');
    expect(inFlightOf('W1')).toEqual([items[0]!.id, items[2]!.id]);
    expect(bytesInFlight('W1')).toBeLessThanOrEqual(2 * SLOT_BYTES);

    for (let n = 0; n < 30; n++) (await fake.attempt(n)).answer(delivered(`F${n}`));
    await allFinished(queue);
    // First in, first out by start, in each workspace.
    const startOrder = (list: { id: string }[]) =>
      fake.started.map((a) => a.item.id).filter((id) => list.some((i) => i.id === id));
    expect(startOrder(items)).toEqual(items.map((i) => i.id));
    expect(startOrder(otherItems)).toEqual(otherItems.map((i) => i.id));
    expect(queue.list().every((i) => i.state === 'delivered')).toBe(true);
  });

  it('at 1 a large file goes strictly alone, and small files behind it wait their turn', async () => {
    const { queue, fake } = await setup({ concurrency: () => 1 });
    const [small] = await files(1, 'first');
    const [large] = await largeFiles(1);
    const after = await files(3, 'after');
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [small!, large!, ...after],
    });
    const ids = () => fake.inFlight().map((a) => a.item.id);
    // The small file takes a tenth of the slot; the large file does not fit beside it, and the
    // small files behind the large one do not pass it.
    expect(ids()).toEqual([items[0]!.id]);
    fake.started[0]!.answer(delivered('F0'));
    await waitFor(() => ids()[0] === items[1]!.id, 'the large file');
    expect(ids()).toEqual([items[1]!.id]);
    fake.started[1]!.answer(delivered('F1'));
    await waitFor(() => ids().length === 3, 'the small files after it');
    expect(ids()).toEqual(items.slice(2).map((i) => i.id));
    for (let n = 2; n < 5; n++) (await fake.attempt(n)).answer(delivered(`F${n}`));
    await allFinished(queue);
    expect(queue.list().every((i) => i.state === 'delivered')).toBe(true);
  });

  it('retries a transient failure after a backoff, up to the policy maximum', async () => {
    const { queue, fake, clock } = await setup();
    const [a, b] = await files(2);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!, b!],
    });
    const [itemA, itemB] = items;

    (await fake.attempt(0)).answer(failure('transient', 'connection_reset'));
    await waitFor(() => stateOf(queue, itemA!.id) === 'waiting', 'A waiting');
    const waiting = itemOf(queue, itemA!.id);
    // retryDelayMs(1, {base 100, random 0.5}) = 50
    expect(waiting.retryAt).toBe(clock.now() + 50);
    expect(waiting.error?.code).toBe('connection_reset');

    clock.advance(50);
    const second = await fake.attempt(2);
    expect(second.item.id).toBe(itemA!.id);
    expect(second.item.attempts).toBe(2);
    second.answer(failure('transient', 'http_503'));
    await waitFor(() => stateOf(queue, itemA!.id) === 'waiting', 'A waiting again');
    clock.advance(1000);
    (await fake.attempt(3)).answer(failure('transient', 'http_503'));

    // Third transient failure with maxAttempts 3: the item fails with the last reason.
    await waitFor(() => stateOf(queue, itemA!.id) === 'failed', 'A failed');
    expect(itemOf(queue, itemA!.id)).toMatchObject({ attempts: 3, error: { code: 'http_503' } });

    (await fake.attempt(1)).answer(delivered());
    await allFinished(queue);
    expect(stateOf(queue, itemB!.id)).toBe('delivered');
  });

  it('pauses the whole workspace on a rate limit until Retry-After; other workspaces go on', async () => {
    const { queue, fake, clock } = await setup({ concurrency: () => 1 });
    // Large files: at 1, each goes strictly alone, so the second one waits for the first.
    const paths = await largeFiles(2);
    const [otherPath] = await files(1, 'other');
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });
    const { items: other } = await queue.enqueue({
      workspaceId: 'W2',
      channels: ['C1'],
      comment: '',
      paths: [otherPath!],
    });

    (await fake.attempt(0)).answer(failure('transient', 'ratelimited', { retryAfterMs: 30_000 }));
    await waitFor(() => stateOf(queue, items[0]!.id) === 'waiting', 'rate-limited item waiting');
    expect(itemOf(queue, items[0]!.id).retryAt).toBe(clock.now() + 30_000);
    // The second W1 item would have a free slot, but the workspace is paused.
    expect(fake.started.filter((a) => a.item.workspaceId === 'W1')).toHaveLength(1);
    expect(stateOf(queue, items[1]!.id)).toBe('queued');
    (await fake.attempt(1)).answer(delivered());
    await waitFor(() => stateOf(queue, other[0]!.id) === 'delivered', 'W2 item delivered');
    expect(fake.started.filter((a) => a.item.workspaceId === 'W1')).toHaveLength(1);

    clock.advance(29_999);
    expect(fake.started).toHaveLength(2);
    clock.advance(1);
    const resumed = await fake.attempt(2);
    expect(resumed.item.id).toBe(items[0]!.id);
    resumed.answer(delivered());
    (await fake.attempt(3)).answer(delivered());
    await allFinished(queue);
    expect(queue.list().map((i) => i.state)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('stops a workspace whose token is refused, asks once, and resumes with resumeWorkspace', async () => {
    const { queue, fake } = await setup({ concurrency: () => 2 });
    // Large files: two slots take two of them.
    const paths = await largeFiles(4);
    const asked: { workspaceId: string; message: string }[] = [];
    queue.onNeedsToken((e) => asked.push(e));
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });

    (await fake.attempt(0)).answer(failure('credential', 'invalid_auth'));
    (await fake.attempt(1)).answer(failure('credential', 'invalid_auth'));
    await queue.settled();
    expect(asked).toEqual([{ workspaceId: 'W1', message: 'test failure invalid_auth' }]);
    expect(workspacesNeedingToken(queue.list())).toEqual(['W1']);
    expect(fake.started).toHaveLength(2);
    expect(queue.list().map((i) => i.state)).toEqual(['waiting', 'waiting', 'queued', 'queued']);
    expect(itemOf(queue, items[0]!.id).error?.code).toBe('invalid_auth');

    queue.resumeWorkspace('W1');
    for (let n = 2; n < 6; n++) (await fake.attempt(n)).answer(delivered());
    await allFinished(queue);
    expect(fake.started.slice(2).map((a) => a.item.id)).toEqual(items.map((i) => i.id));
    expect(queue.list().every((i) => i.state === 'delivered')).toBe(true);
    expect(asked).toHaveLength(1);
  });

  it('fails only the item whose target or content is refused', async () => {
    const { queue, fake } = await setup();
    const paths = await files(3);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });
    (await fake.attempt(0)).answer(failure('target', 'channel_not_found'));
    (await fake.attempt(1)).answer(failure('content', 'blocked_file_type'));
    (await fake.attempt(2)).answer(delivered());
    await allFinished(queue);
    expect(queue.list().map((i) => [i.state, i.error?.code])).toEqual([
      ['failed', 'channel_not_found'],
      ['failed', 'blocked_file_type'],
      ['delivered', undefined],
    ]);
    expect(fake.started).toHaveLength(3);
    expect(items).toHaveLength(3);
  });

  it('marks an unknown outcome "may have been delivered" and never sends it again on its own', async () => {
    const { queue, fake, clock } = await setup();
    const [path] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [path!],
    });
    const a = await fake.attempt(0);
    await a.completeBody();
    a.answer({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'http_502', message: 'may have been delivered' },
    });
    await allFinished(queue);
    clock.advance(3_600_000);
    expect(fake.started).toHaveLength(1);
    expect(itemOf(queue, items[0]!.id)).toMatchObject({
      state: 'unknown',
      error: { code: 'http_502' },
    });
  });

  it('holds new items while paused and lets in-flight ones finish', async () => {
    const { queue, fake } = await setup();
    const [a, b] = await files(2);
    await queue.enqueue({ workspaceId: 'W1', channels: ['C1'], comment: '', paths: [a!] });
    const first = await fake.attempt(0);
    queue.setPaused(true);
    expect(queue.paused()).toBe(true);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [b!],
    });
    first.answer(delivered());
    await queue.settled();
    expect(fake.started).toHaveLength(1);
    expect(stateOf(queue, items[0]!.id)).toBe('queued');
    queue.setPaused(false);
    (await fake.attempt(1)).answer(delivered());
    await allFinished(queue);
    expect(stateOf(queue, items[0]!.id)).toBe('delivered');
  });

  it('can start paused (the pause kept in settings)', async () => {
    const { queue, fake } = await setup({ startPaused: true });
    const [a] = await files(1);
    await queue.enqueue({ workspaceId: 'W1', channels: ['C1'], comment: '', paths: [a!] });
    await queue.settled();
    expect(fake.started).toHaveLength(0);
  });
});

describe('upload queue: the person’s actions', () => {
  it('cancels a queued item at once', async () => {
    const { queue, fake, history } = await setup({ concurrency: () => 1 });
    // Large files: at 1, the second waits while the first goes.
    const [a, b] = await largeFiles(2);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!, b!],
    });
    await queue.cancel(items[1]!.id);
    expect(stateOf(queue, items[1]!.id)).toBe('cancelled');
    (await fake.attempt(0)).answer(delivered());
    await allFinished(queue);
    expect(fake.started.map((x) => x.item.id)).toEqual([items[0]!.id]);
    expect(history.list().map((h) => h.outcome)).toEqual(['delivered', 'cancelled']);
  });

  it('cancels a waiting item at once', async () => {
    const { queue, fake, clock } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    (await fake.attempt(0)).answer(failure('transient', 'http_503'));
    await waitFor(() => stateOf(queue, items[0]!.id) === 'waiting', 'waiting');
    await queue.cancel(items[0]!.id);
    expect(stateOf(queue, items[0]!.id)).toBe('cancelled');
    clock.advance(60_000);
    await allFinished(queue);
    expect(fake.started).toHaveLength(1);
  });

  it('cancels a sending item by aborting its request', async () => {
    const { queue, fake } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    const attempt = await fake.attempt(0);
    await queue.cancel(items[0]!.id);
    expect(attempt.hooks.signal.aborted).toBe(true);
    expect(itemOf(queue, items[0]!.id)).toMatchObject({ state: 'cancelled' });
    expect(itemOf(queue, items[0]!.id).error).toBeUndefined();
  });

  it('says so when an item is cancelled after its whole body was sent', async () => {
    const { queue, fake } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    const attempt = await fake.attempt(0);
    await attempt.completeBody();
    await queue.cancel(items[0]!.id);
    expect(itemOf(queue, items[0]!.id)).toMatchObject({
      state: 'cancelled',
      error: { code: 'cancelled_after_body' },
    });
  });

  it('leaves a finished item alone on cancel', async () => {
    const { queue, fake } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    (await fake.attempt(0)).answer(delivered());
    await allFinished(queue);
    await queue.cancel(items[0]!.id);
    expect(stateOf(queue, items[0]!.id)).toBe('delivered');
    await expect(queue.cancel('no-such-id')).rejects.toThrow(/No upload/);
  });

  it('retries a failed item as the same item with its attempts reset', async () => {
    const { queue, fake, history } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    (await fake.attempt(0)).answer(failure('target', 'not_in_channel'));
    await allFinished(queue);
    await queue.retry(items[0]!.id);
    const again = await fake.attempt(1);
    expect(again.item).toMatchObject({ id: items[0]!.id, attempts: 1 });
    expect(again.item.error).toBeUndefined();
    again.answer(delivered('F9'));
    await allFinished(queue);
    expect(queue.list()).toHaveLength(1);
    expect(itemOf(queue, items[0]!.id)).toMatchObject({ state: 'delivered', file: { id: 'F9' } });
    // A retry of the same item updates its one history row.
    expect(history.list().map((h) => [h.outcome, h.error?.code])).toEqual([
      ['delivered', undefined],
    ]);
  });

  it('retries unknown and cancelled items too, and takes the file as it is now', async () => {
    const { queue, fake } = await setup({ concurrency: () => 1 });
    // Large files: at 1, the second waits while the first goes.
    const [a, b] = await largeFiles(2);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!, b!],
    });
    await queue.cancel(items[1]!.id);
    (await fake.attempt(0)).answer({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'reset_after_body', message: 'x' },
    });
    await allFinished(queue);
    await writeFile(a!, 'longer contents than before\n');
    await queue.retry(items[0]!.id);
    await queue.retry(items[1]!.id);
    const retried = await fake.attempt(1);
    expect(retried.item.size).toBe('longer contents than before\n'.length);
    retried.answer(delivered());
    (await fake.attempt(2)).answer(delivered());
    await allFinished(queue);
    expect(queue.list().map((i) => i.state)).toEqual(['delivered', 'delivered']);
  });

  it('does not send again a file that is gone or became a folder; says why', async () => {
    const { queue, fake } = await setup();
    const [a] = await files(1);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    (await fake.attempt(0)).answer(failure('content', 'blocked_file_type'));
    await allFinished(queue);
    await rm(a!);
    await mkdir(a!);
    await writeFile(join(a!, 'inner.txt'), 'not the file that was shared');
    await queue.retry(items[0]!.id);
    await allFinished(queue);
    expect(fake.started).toHaveLength(1);
    expect(itemOf(queue, items[0]!.id)).toMatchObject({
      state: 'failed',
      error: {
        class: 'input',
        code: 'file_unavailable',
        message: expect.stringMatching(/Not a regular file/),
      },
    });
  });

  it('clears finished items from the queue; history keeps them', async () => {
    const { queue, fake, history } = await setup({ concurrency: () => 1 });
    const [a, b] = await files(2);
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!, b!],
    });
    (await fake.attempt(0)).answer(delivered());
    await fake.attempt(1);
    await waitFor(() => stateOf(queue, items[0]!.id) === 'delivered', 'first delivered');
    await queue.clearFinished();
    expect(queue.list().map((i) => i.id)).toEqual([items[1]!.id]);
    expect(history.list()).toHaveLength(1);
    fake.started[1]!.answer(delivered());
    await allFinished(queue);
  });
});

describe('upload queue: events', () => {
  it('reports state changes and finished items, and throttles progress', async () => {
    const { queue, fake } = await setup();
    const [a] = await files(1);
    const seen: QueueItem[][] = [];
    const finished: QueueItem[] = [];
    queue.onChange((items) => seen.push(items));
    queue.onFinished((item) => finished.push(item));
    const { items } = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [a!],
    });
    const attempt = await fake.attempt(0);
    await waitFor(() => seen.some((s) => s[0]?.state === 'sending'), 'sending event');
    const before = seen.length;
    for (let sent = 1; sent <= 1000; sent++) attempt.hooks.onProgress(sent);
    await waitFor(() => seen.at(-1)?.[0]?.sent === 1000, 'progress event');
    // A thousand progress calls in one go make one or two events, not a thousand.
    expect(seen.length - before).toBeLessThanOrEqual(2);
    attempt.answer(delivered());
    await allFinished(queue);
    expect(seen.at(-1)?.[0]?.state).toBe('delivered');
    expect(finished.map((i) => [i.id, i.state])).toEqual([[items[0]!.id, 'delivered']]);
  });

  it('writes a history entry per finished item with what the person needs', async () => {
    const { queue, fake, history } = await setup();
    const [a] = await files(1);
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1', 'C2'],
      comment: 'Q3 deck',
      paths: [a!],
    });
    (await fake.attempt(0)).answer(delivered('F77'));
    await allFinished(queue);
    expect(history.list()).toEqual([
      expect.objectContaining({
        workspaceId: 'W1',
        workspaceName: 'Team W1',
        channels: ['C1', 'C2'],
        comment: 'Q3 deck',
        name: 'file-00.txt',
        path: a,
        size: 'contents of file 0\n'.length,
        outcome: 'delivered',
        permalink: 'https://example.test/files/F77',
        fileId: 'F77',
      }),
    ]);
  });
});

describe('upload queue: file checks when queued', () => {
  it('refuses missing, too large and empty-folder paths with a reason; expands folders', async () => {
    const { queue, fake } = await setup({ maxFileBytes: () => 100 });
    const [small] = await files(1);
    const big = join(dirs.root, 'big.bin');
    await writeFile(big, Buffer.alloc(101));
    const folder = join(dirs.root, 'folder');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'b.txt'), 'b');
    await writeFile(join(folder, 'sub', 'a.txt'), 'a');
    const empty = join(dirs.root, 'empty');
    await mkdir(empty);
    const result = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [small!, join(dirs.root, 'missing.txt'), big, folder, empty],
    });
    expect(result.items.map((i) => i.path)).toEqual([
      small,
      join(folder, 'b.txt'),
      join(folder, 'sub', 'a.txt'),
    ]);
    expect(result.items.every((i) => i.shareId === result.shareId)).toBe(true);
    expect(result.refused).toEqual([
      {
        path: join(dirs.root, 'missing.txt'),
        code: 'not_found',
        reason: expect.stringMatching(/No such file/),
      },
      {
        path: big,
        code: 'too_large',
        reason: expect.stringMatching(/Too large: 101 bytes.*100 bytes/),
      },
      { path: empty, code: 'folder_empty', reason: expect.stringMatching(/holds no files/) },
    ]);
    expect(queue.list()).toHaveLength(3);
    for (let n = 0; n < 3; n++) (await fake.attempt(n)).answer(delivered());
    await allFinished(queue);
  });
});

describe('upload queue: journal and restart', () => {
  // A copy of the data folder taken while the queue works is what a crash leaves on disk.
  async function crashCopy(dir: string): Promise<string> {
    const copy = join(dirs.root, `crash-${Math.random().toString(36).slice(2)}`);
    await cp(dir, copy, { recursive: true });
    return copy;
  }

  it('sends again what was not fully sent, and marks body-complete items unknown', async () => {
    const first = await setup({ concurrency: () => 2 });
    const paths = await files(3);
    const { items } = await first.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });
    const bodyDone = await first.fake.attempt(0);
    await bodyDone.completeBody();
    await first.fake.attempt(1); // sending, body not complete
    const copy = await crashCopy(first.dir);

    const second = await setup({ dir: copy, concurrency: () => 2 });
    await second.fake.attempt(1);
    expect(second.fake.started.map((a) => a.item.id)).toEqual([items[1]!.id, items[2]!.id]);
    expect(itemOf(second.queue, items[0]!.id)).toMatchObject({
      state: 'unknown',
      error: { class: 'unknown-outcome', code: 'interrupted_after_body' },
    });
    for (const a of second.fake.started) a.answer(delivered());
    await allFinished(second.queue);
    expect(second.fake.started).toHaveLength(2);
    expect(
      second.history
        .list()
        .map((h) => [h.name, h.outcome])
        .sort(),
    ).toEqual([
      ['file-00.txt', 'unknown'],
      ['file-01.txt', 'delivered'],
      ['file-02.txt', 'delivered'],
    ]);
  });

  it('keeps finished items and their outcome across a restart', async () => {
    const first = await setup();
    const paths = await files(2);
    await first.queue.enqueue({ workspaceId: 'W1', channels: ['C1'], comment: '', paths });
    (await first.fake.attempt(0)).answer(delivered('F1'));
    (await first.fake.attempt(1)).answer(failure('target', 'channel_not_found'));
    await allFinished(first.queue);
    const before = first.queue.list();
    const copy = await crashCopy(first.dir);

    const second = await setup({ dir: copy });
    expect(second.queue.list()).toEqual(before);
    expect(second.fake.started).toHaveLength(0);
    expect(second.history.list()).toHaveLength(2);
  });

  it('drops a torn last line of the journal and carries on', async () => {
    const first = await setup();
    const paths = await files(2);
    const { items } = await first.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths,
    });
    await first.fake.attempt(1);
    const copy = await crashCopy(first.dir);
    // Half of a "body complete" record: its fsync never returned, so the last bytes never went.
    const torn = JSON.stringify({ t: 'set', id: items[0]!.id, meta: { bodySent: true } });
    await writeFile(join(copy, JOURNAL_FILE), torn.slice(0, 25), { flag: 'a' });

    const second = await setup({ dir: copy });
    await second.fake.attempt(1);
    expect(second.fake.started.map((a) => a.item.id)).toEqual(items.map((i) => i.id));
    const text = await readFile(join(copy, JOURNAL_FILE), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(parseJsonl(text)).toMatchObject({ torn: false, bad: 0 });
    for (const a of second.fake.started) a.answer(delivered());
    await allFinished(second.queue);
    expect(second.queue.list().map((i) => i.state)).toEqual(['delivered', 'delivered']);
  });

  it('compacts the journal as it grows, without changing what it holds', async () => {
    const first = await setup({ compactAfterRecords: 10, concurrency: () => 1 });
    const paths = await files(12);
    await first.queue.enqueue({ workspaceId: 'W1', channels: ['C1'], comment: '', paths });
    for (let n = 0; n < 12; n++) (await first.fake.attempt(n)).answer(delivered(`F${n}`));
    await allFinished(first.queue);
    const records = await journalRecords(first.dir);
    // 12 items went through ~5 records each; after compaction far fewer remain.
    expect(records.length).toBeLessThan(12 + 10 + 12);
    await first.queue.clearFinished();
    const copy = await crashCopy(first.dir);
    const second = await setup({ dir: copy });
    expect(second.queue.list()).toEqual([]);
    expect(second.history.list()).toHaveLength(12);
  });

  it('refuses a second queue over the same folder while the first is open', async () => {
    const first = await setup();
    await expect(
      openUploadQueue({
        dir: first.dir,
        runAttempt: first.fake.runAttempt,
        concurrency: () => 1,
        maxFileBytes: () => 1,
        history: first.history,
      }),
    ).rejects.toBeInstanceOf(QueueLockedError);
  });
});
