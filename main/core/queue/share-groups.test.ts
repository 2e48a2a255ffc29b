// The queue's share grouping, with attempts the test answers: files of one share hand over once
// their bytes are up, give their slot back, and complete together once none is still on its
// way; a file that fails for good or is cancelled does not hold the rest. (Over real HTTP:
// test/external/share-queue.test.ts and crash.test.ts.)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allFinished,
  delivered,
  type FakeAttempt,
  type FakeQueue,
  failure,
  openFakeQueue,
  useQueueTestDirs,
  waitFor,
} from '../../../test/queue/kit';
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import type { ShareHooks, UploadQueue } from './upload-queue';

const dirs = useQueueTestDirs('trayshare-share-groups-');

interface Completion {
  items: QueueItem[];
  hooks: ShareHooks;
}

interface Setup extends FakeQueue {
  completions: Completion[];
}

async function setup(
  concurrency = 1,
  dir = join(dirs.root, 'data'),
  gate?: (n: number) => Promise<void>,
): Promise<Setup> {
  const completions: Completion[] = [];
  const s = await openFakeQueue(dirs, {
    dir,
    completeShare: async (items, hooks) => {
      completions.push({ items, hooks });
      await gate?.(completions.length - 1);
      await hooks.beforeBodyComplete();
      return items.map((item): AttemptResult => delivered(`F-${item.name}`));
    },
    concurrency: () => concurrency,
  });
  return { ...s, completions };
}

async function share(s: Setup, n: number): Promise<string[]> {
  const dir = join(dirs.root, 'files');
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const path = join(dir, `f${i}.txt`);
    await writeFile(path, `file ${i}\n`);
    paths.push(path);
  }
  const { items } = await s.queue.enqueue({
    workspaceId: 'W1',
    channels: ['C1'],
    comment: 'all of them',
    paths,
  });
  return items.map((i) => i.id);
}

/** The attempt's bytes are up: it checkpoints and hands over, as the external protocol does. */
async function handOver(a: FakeAttempt, fileId: string): Promise<void> {
  await a.hooks.checkpoint({ fileId });
  const awaitShare = a.hooks.awaitShare;
  if (!awaitShare) throw new Error('the attempt was not asked to complete with its share');
  void awaitShare().then((result) => a.answer(result));
}

const states = (q: UploadQueue) => q.list().map((i) => i.state);

describe('upload queue: files of one share complete together', () => {
  it('a file that handed over gives its slot back; the share completes once, with every file', async () => {
    const s = await setup(1);
    await share(s, 3);
    for (let n = 0; n < 3; n++) {
      // One slot: the next file can only start because the one before gave its slot back.
      await handOver(await s.fake.attempt(n), `F${n}`);
    }
    await allFinished(s.queue);
    expect(s.completions).toHaveLength(1);
    expect(s.completions[0]!.items.map((i) => i.name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(s.completions[0]!.hooks.resumes).toEqual([
      { fileId: 'F0' },
      { fileId: 'F1' },
      { fileId: 'F2' },
    ]);
    expect(states(s.queue)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(s.queue.list().map((i) => i.file?.id)).toEqual(['F-f0.txt', 'F-f1.txt', 'F-f2.txt']);
  });

  it('12 files complete as 10 + 2, one completion after the other', async () => {
    const s = await setup(3);
    await share(s, 12);
    for (let n = 0; n < 12; n++) await handOver(await s.fake.attempt(n), `F${n}`);
    await allFinished(s.queue);
    expect(s.completions.map((c) => c.items.length)).toEqual([10, 2]);
  });

  it('a file backing off after a transient failure holds its group until it is up too', async () => {
    const s = await setup(2);
    await share(s, 3);
    await handOver(await s.fake.attempt(0), 'F0');
    (await s.fake.attempt(1)).answer(failure('transient', 'http_503'));
    await handOver(await s.fake.attempt(2), 'F2');
    await waitFor(() => s.clock.pending() > 0, 'the backoff');
    expect(s.completions).toHaveLength(0);
    s.clock.advance(10_000);
    await handOver(await s.fake.attempt(3), 'F1');
    await allFinished(s.queue);
    expect(s.completions.map((c) => c.items.map((i) => i.name))).toEqual([
      ['f0.txt', 'f1.txt', 'f2.txt'],
    ]);
  });

  it('a file that fails for good does not hold the others: they complete without it', async () => {
    const s = await setup(1);
    await share(s, 3);
    await handOver(await s.fake.attempt(0), 'F0');
    (await s.fake.attempt(1)).answer(failure('input', 'file_changed'));
    await handOver(await s.fake.attempt(2), 'F2');
    await allFinished(s.queue);
    expect(states(s.queue)).toEqual(['delivered', 'failed', 'delivered']);
    expect(s.completions.map((c) => c.items.map((i) => i.name))).toEqual([['f0.txt', 'f2.txt']]);
  });

  it('a file cancelled while it waits leaves the group before it is sent', async () => {
    const s = await setup(1);
    const ids = await share(s, 3);
    await handOver(await s.fake.attempt(0), 'F0');
    await handOver(await s.fake.attempt(1), 'F1');
    await s.queue.cancel(ids[0]!);
    await handOver(await s.fake.attempt(2), 'F2');
    await allFinished(s.queue);
    expect(states(s.queue)).toEqual(['cancelled', 'delivered', 'delivered']);
    expect(s.completions.map((c) => c.items.map((i) => i.name))).toEqual([['f1.txt', 'f2.txt']]);
  });

  it('a file cancelled while an earlier group of its share completes leaves the later group', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = await setup(3, join(dirs.root, 'data'), (n) => (n === 0 ? held : Promise.resolve()));
    const ids = await share(s, 12);
    for (let n = 0; n < 12; n++) await handOver(await s.fake.attempt(n), `F${n}`);
    await waitFor(() => s.completions.length === 1, 'the first completion');
    await s.queue.cancel(ids[11]!);
    release();
    await allFinished(s.queue);
    expect(s.completions.map((c) => c.items.map((i) => i.name))).toEqual([
      [
        'f0.txt',
        'f1.txt',
        'f2.txt',
        'f3.txt',
        'f4.txt',
        'f5.txt',
        'f6.txt',
        'f7.txt',
        'f8.txt',
        'f9.txt',
      ],
      ['f10.txt'],
    ]);
    expect(states(s.queue).at(-1)).toBe('cancelled');
  });

  it('a share whose other file waits for a new token is settled, and completes once the token comes', async () => {
    const s = await setup(2);
    await share(s, 2);
    await handOver(await s.fake.attempt(0), 'F0');
    (await s.fake.attempt(1)).answer(failure('credential', 'invalid_auth'));
    // Nothing more can happen without the person: settled() must not wait for the group.
    await s.queue.settled();
    expect(states(s.queue)).toEqual(['sending', 'waiting']);
    expect(s.completions).toHaveLength(0);
    s.queue.resumeWorkspace('W1');
    await handOver(await s.fake.attempt(2), 'F1');
    await allFinished(s.queue);
    expect(s.completions.map((c) => c.items.length)).toEqual([2]);
  });

  it('closed while files wait for their group: reopened, they resume from their checkpoints and complete once', async () => {
    const dir = join(dirs.root, 'reopen');
    const s = await setup(1, dir);
    await share(s, 2);
    await handOver(await s.fake.attempt(0), 'F0');
    const second = await s.fake.attempt(1);
    const first = dirs.open.pop()!;
    await first.queue.close();
    await first.history.close();
    expect(second.done).toBe(true);
    expect(s.completions).toHaveLength(0);

    const again = await setup(1, dir);
    for (let n = 0; n < 2; n++) {
      const a = await again.fake.attempt(n);
      if (n === 0) expect(a.hooks.resume).toEqual({ fileId: 'F0' });
      await handOver(a, a.hooks.resume ? 'F0' : 'F1');
    }
    await allFinished(again.queue);
    expect(again.completions.map((c) => c.items.length)).toEqual([2]);
    expect(states(again.queue)).toEqual(['delivered', 'delivered']);
  });

  it('a share of one file completes alone, as before', async () => {
    const s = await setup(1);
    await share(s, 1);
    const a = await s.fake.attempt(0);
    expect(a.hooks.awaitShare).toBeUndefined();
    a.answer(delivered());
    await allFinished(s.queue);
    expect(s.completions).toHaveLength(0);
  });
});
