// The item lifecycle's paths its first tests left open (found by mutation testing,
// docs/mutation.md): quitting while a file is sent, a rate limit that outlives a restart, the
// bound on rate-limit waits, an attempt that throws after an earlier one had sent its whole
// body, and how long a file waits while the journal cannot be written. Each over the real queue
// and journal on disk, with attempts the test answers and a clock it moves.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allFinished,
  delivered,
  type FakeQueueOptions,
  failure,
  fakeAttempts,
  fakeClock,
  LARGE_FILE_LIMIT,
  largeQueueFiles,
  openFakeQueue,
  queueFiles,
  useQueueTestDirs,
  waitFor,
} from '../../../test/queue/kit';
import { JsonlAppender } from '../history/jsonl-file';
import type { QueueItem } from '../model';
import { JOURNAL_FILE } from './journal';
import type { UploadQueue } from './upload-queue';

const dirs = useQueueTestDirs('trayshare-lifecycle-edges-');

const share = async (queue: UploadQueue, count: number, prefix?: string) =>
  (
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await queueFiles(dirs, count, prefix),
    })
  ).items;

/** A share of large files (a whole slot each): at 1, each goes strictly alone. */
const largeShare = async (queue: UploadQueue, count: number, prefix = 'file') =>
  (
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, count, prefix),
    })
  ).items;
const large = { maxFileBytes: LARGE_FILE_LIMIT };

const itemOf = (queue: UploadQueue, id: string): QueueItem => {
  const item = queue.list().find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  return item;
};

/** The queue's folder as a restart finds it (a copy: the first queue's files stay its own). */
async function restartCopy(dir: string): Promise<string> {
  const copy = join(dirs.root, `restart-${Math.random().toString(36).slice(2)}`);
  await cp(dir, copy, { recursive: true });
  return copy;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('quitting while files are being sent', () => {
  it('a file cut off mid-body is sent again on the next start, not cancelled; nothing starts after the quit', async () => {
    const first = await openFakeQueue(dirs, large);
    const items = await largeShare(first.queue, 2);
    await first.fake.attempt(0);
    await first.queue.close();
    // The second file (large, as the first) was waiting for the slot: the quit does not start it.
    expect(first.fake.started).toHaveLength(1);
    expect(first.history.list()).toEqual([]);

    const second = await openFakeQueue(dirs, { ...large, dir: await restartCopy(first.dir) });
    const again = await second.fake.attempt(0);
    expect(again.item.id).toBe(items[0]!.id);
    expect(itemOf(second.queue, items[0]!.id).state).toBe('sending');
    again.answer(delivered('F1'));
    (await second.fake.attempt(1)).answer(delivered('F2'));
    await allFinished(second.queue);
    expect(
      second.history
        .list()
        .map((h) => [h.name, h.outcome])
        .sort(),
    ).toEqual([
      ['file-0.txt', 'delivered'],
      ['file-1.txt', 'delivered'],
    ]);
  });

  it('a file whose answer comes during the quit is delivered, and frees no slot for the next file', async () => {
    const first = await openFakeQueue(dirs, large);
    await largeShare(first.queue, 2);
    const sending = await first.fake.attempt(0);
    await sending.completeBody();
    const closed = first.queue.close();
    sending.answer(delivered('F1'));
    await closed;
    expect(first.fake.started).toHaveLength(1);
    expect(first.history.list().map((h) => [h.name, h.outcome])).toEqual([
      ['file-0.txt', 'delivered'],
    ]);

    const second = await openFakeQueue(dirs, { ...large, dir: await restartCopy(first.dir) });
    (await second.fake.attempt(0)).answer(delivered('F2'));
    await allFinished(second.queue);
    expect(second.fake.started.map((a) => a.item.name)).toEqual(['file-1.txt']);
    expect(second.queue.list().map((i) => i.state)).toEqual(['delivered', 'delivered']);
  });
});

describe('rate limits', () => {
  it('a rate limit is kept across a restart: no file of the workspace goes before it ends', async () => {
    const first = await openFakeQueue(dirs);
    await share(first.queue, 2);
    (await first.fake.attempt(0)).answer(
      failure('transient', 'ratelimited', { retryAfterMs: 60_000 }),
    );
    await waitFor(() => first.queue.list()[0]?.state === 'waiting', 'the wait');
    await pause();
    const copy = await restartCopy(first.dir);

    const clock = fakeClock();
    const second = await openFakeQueue(dirs, { dir: copy, clock });
    await pause();
    expect(second.fake.started).toHaveLength(0);
    clock.advance(60_000);
    (await second.fake.attempt(0)).answer(delivered('F1'));
    (await second.fake.attempt(1)).answer(delivered('F2'));
    await allFinished(second.queue);
    expect(second.queue.list().map((i) => i.state)).toEqual(['delivered', 'delivered']);
  });

  it('the bound on rate-limit waits is the one the queue was given', async () => {
    const { queue, fake, clock } = await openFakeQueue(dirs, { maxRateLimitWaits: 1 });
    const [item] = await share(queue, 1);
    (await fake.attempt(0)).answer(failure('transient', 'ratelimited', { retryAfterMs: 1000 }));
    await waitFor(() => itemOf(queue, item!.id).state === 'waiting', 'the first wait');
    clock.advance(1000);
    (await fake.attempt(1)).answer(failure('transient', 'ratelimited', { retryAfterMs: 1000 }));
    await waitFor(() => itemOf(queue, item!.id).state === 'failed', 'the failure');
    expect(itemOf(queue, item!.id).error?.code).toBe('ratelimited');
  });
});

describe('an attempt that throws', () => {
  it('after an earlier attempt had sent its whole body, it fails with the error, not "may have been delivered"', async () => {
    let throwNext = false;
    const fake = fakeAttempts();
    const { queue, clock } = await openFakeQueue(dirs, {
      fake,
      runAttempt: (item, hooks) =>
        throwNext
          ? Promise.reject(new Error('a bug before any byte went'))
          : fake.runAttempt(item, hooks),
    });
    const [item] = await share(queue, 1);
    const firstTry = await fake.attempt(0);
    await firstTry.completeBody();
    firstTry.answer(failure('transient', 'service_unavailable'));
    await waitFor(() => itemOf(queue, item!.id).state === 'waiting', 'the retry');
    throwNext = true;
    clock.advance(10_000);
    await waitFor(
      () => itemOf(queue, item!.id).attempts === 2 && itemOf(queue, item!.id).state !== 'sending',
      'the second attempt to end',
    );
    expect(itemOf(queue, item!.id)).toMatchObject({
      state: 'failed',
      error: { class: 'other', code: 'internal_error' },
    });
    expect(itemOf(queue, item!.id).error?.message).toContain('a bug before any byte went');
    expect(itemOf(queue, item!.id).error?.message).not.toMatch(/may have been delivered/);
  });
});

describe('outcomes that must win', () => {
  it('an answer that comes after the quit stopped waiting for it is still recorded delivered, not sent again', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let calls = 0;
    // The request went whole and its answer is slow: it comes after the quit's grace.
    const runAttempt: FakeQueueOptions['runAttempt'] = async (_item, hooks) => {
      calls++;
      await hooks.beforeBodyComplete();
      await answered;
      return delivered('F1');
    };
    const first = await openFakeQueue(dirs, { runAttempt });
    await share(first.queue, 1);
    await waitFor(() => calls === 1, 'the attempt');
    await pause();
    const closed = first.queue.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer();
    await closed;
    expect(first.history.list().map((h) => h.outcome)).toEqual(['delivered']);

    const second = await openFakeQueue(dirs, { dir: await restartCopy(first.dir), runAttempt });
    expect(second.queue.list().map((i) => i.state)).toEqual(['delivered']);
    expect(calls).toBe(1);
  });

  it('an unclear outcome with a checkpoint is "may have been delivered" at once, not left sending', async () => {
    const { queue, fake } = await openFakeQueue(dirs);
    const [item] = await share(queue, 1);
    const attempt = await fake.attempt(0);
    await attempt.hooks.checkpoint({ step: 3 });
    await attempt.completeBody();
    attempt.answer({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'idle_timeout', message: 'No answer.' },
    });
    await waitFor(() => itemOf(queue, item!.id).state === 'unknown', 'the unknown outcome');
  });

  it('Cancel wins over an attempt that then fails: cancelled, not tried again', async () => {
    const fake = fakeAttempts();
    const { queue, clock } = await openFakeQueue(dirs, {
      fake,
      // Like a request cut off mid-body that reports a network error rather than the abort.
      runAttempt: (item, hooks) => {
        const result = fake.runAttempt(item, hooks);
        return new Promise((resolve) => {
          hooks.signal.addEventListener('abort', () =>
            resolve(failure('transient', 'connection_reset')),
          );
          void result.then(resolve);
        });
      },
    });
    const [item] = await share(queue, 1);
    await fake.attempt(0);
    await queue.cancel(item!.id);
    await waitFor(() => itemOf(queue, item!.id).state === 'cancelled', 'the cancel');
    clock.advance(60_000);
    await pause();
    expect(fake.started).toHaveLength(1);
    expect(itemOf(queue, item!.id).state).toBe('cancelled');
  });
});

describe('which files complete together', () => {
  async function handOvers(completeShare: boolean, count: number): Promise<boolean[]> {
    const { queue, fake } = await openFakeQueue(dirs, {
      dir: join(dirs.root, `queue-${completeShare}-${count}`),
      concurrency: () => count,
      ...(completeShare
        ? { completeShare: async (items: QueueItem[]) => items.map(() => delivered()) }
        : {}),
    });
    await share(queue, count, `share-${completeShare}`);
    const attempts = await Promise.all(Array.from({ length: count }, (_, i) => fake.attempt(i)));
    return attempts.map((a) => typeof a.hooks.awaitShare === 'function');
  }

  it('only the files of a share of several, and only in a queue that completes them together', async () => {
    expect(await handOvers(true, 2)).toEqual([true, true]);
    expect(await handOvers(true, 1)).toEqual([false]);
    expect(await handOvers(false, 2)).toEqual([false, false]);
  });

  it('a lone file queued beside another share is not handed over to it', async () => {
    const { queue, fake } = await openFakeQueue(dirs, {
      concurrency: () => 3,
      completeShare: async (items: QueueItem[]) => items.map(() => delivered()),
    });
    await share(queue, 2, 'pair');
    await share(queue, 1, 'lone');
    const attempts = await Promise.all([0, 1, 2].map((i) => fake.attempt(i)));
    expect(
      attempts.map((a) => [a.item.name, typeof a.hooks.awaitShare === 'function']).sort(),
    ).toEqual([
      ['lone-0.txt', false],
      ['pair-0.txt', true],
      ['pair-1.txt', true],
    ]);
  });

  it('a share of two is prepared ahead for its waiting file', async () => {
    const prepared: string[] = [];
    // Large files: at 1, the second waits for the slot while the first goes.
    const { queue, fake } = await openFakeQueue(dirs, {
      ...large,
      concurrency: () => 1,
      completeShare: async (items: QueueItem[]) => items.map(() => delivered()),
      prepare: (item) => {
        prepared.push(item.name);
      },
    });
    await largeShare(queue, 2, 'pair');
    await fake.attempt(0);
    await pause();
    expect(prepared).toEqual(['pair-1.txt']);
  });
});

describe('a journal that cannot be written', () => {
  let full = false;
  const realAppend = JsonlAppender.prototype.append;
  // Only the queue's journal fills up; the history beside it keeps working.
  vi.spyOn(JsonlAppender.prototype, 'append').mockImplementation(function (
    this: JsonlAppender,
    values,
    opts,
  ) {
    if (full && this.path.endsWith(JOURNAL_FILE)) {
      return Promise.reject(
        Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      );
    }
    return realAppend.call(this, values, opts);
  });
  afterEach(() => {
    full = false;
  });

  /** One file whose attempt waits at `go()`, then journals "body complete" before its last
   * bytes go, as the engine does. */
  async function heldAttempt() {
    let calls = 0;
    let go!: () => void;
    const gate = new Promise<void>((resolve) => {
      go = resolve;
    });
    const { queue, clock } = await openFakeQueue(dirs, {
      runAttempt: async (_item, hooks) => {
        calls++;
        await gate;
        await hooks.beforeBodyComplete();
        return delivered();
      },
    });
    const [item] = await share(queue, 1);
    await waitFor(() => calls === 1, 'the attempt');
    return { queue, clock, item, go, calls: () => calls };
  }

  it('the file tries again after 1 s, 2 s, 4 s … and never waits more than 30 s between tries', async () => {
    const { queue, clock, item, go, calls } = await heldAttempt();
    full = true;
    go();
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      await waitFor(
        () =>
          itemOf(queue, item!.id).state === 'waiting' &&
          (itemOf(queue, item!.id).retryAt ?? 0) > clock.now() &&
          itemOf(queue, item!.id).error?.code === 'disk_full',
        `wait ${i + 1}`,
      );
      const wait = (itemOf(queue, item!.id).retryAt ?? 0) - clock.now();
      waits.push(wait);
      clock.advance(wait);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    // Not one byte went again while the journal could not take a record.
    expect(calls()).toBe(1);
  });

  it('Cancel while the journal cannot take the body-complete record: cancelled once it can, never sent again', async () => {
    const { queue, clock, item, go, calls } = await heldAttempt();
    full = true;
    const cancelling = queue.cancel(item!.id);
    go();
    await cancelling;
    full = false;
    for (let i = 0; i < 5 && itemOf(queue, item!.id).state !== 'cancelled'; i++) {
      clock.advance(30_000);
      await pause();
    }
    expect(itemOf(queue, item!.id).state).toBe('cancelled');
    expect(calls()).toBe(1);
  });

  it('the disk fills while a file waits to try again: it waits, and no failed journal write goes unhandled', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const { queue, fake, clock } = await openFakeQueue(dirs);
      const [item] = await share(queue, 1);
      (await fake.attempt(0)).answer(failure('transient', 'service_unavailable'));
      await waitFor(() => itemOf(queue, item!.id).state === 'waiting', 'the retry');
      full = true;
      clock.advance(10_000);
      const again = await fake.attempt(1);
      await expect(again.completeBody()).rejects.toThrow();
      again.answer(failure('transient', 'service_unavailable'));
      await waitFor(() => itemOf(queue, item!.id).state === 'waiting', 'the wait');
      await pause();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
