// A long queue: a scheduling pass stops reading the queue once nothing more can start (the
// workspaces with files to start are full, paused or waiting for a token), so it costs the
// slots and not the length of the queue (scheduler.ts). What people see must not change: files
// still go first in, first out, a workspace behind a long line of another's files still gets
// its slots, and a share's waiting files are asked ahead of their slot, the next ten at a time.
// The files are large (a whole slot of the byte budget each), so the setting's N go at once.
import { describe, expect, it } from 'vitest';
import {
  delivered,
  LARGE_FILE_LIMIT,
  largeQueueFiles,
  openFakeQueue,
  queueFiles,
  useQueueTestDirs,
  waitFor,
} from '../../../test/queue/kit';
import type { QueueItem } from '../model';

const dirs = useQueueTestDirs('trayshare-long-queue-');
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a long queue', () => {
  it("a workspace behind a long line of another's files gets its slots at once", async () => {
    const { queue, fake } = await openFakeQueue(dirs, {
      concurrency: () => 2,
      maxFileBytes: LARGE_FILE_LIMIT,
    });
    const long = await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, 40, 'long'),
    });
    const other = await queue.enqueue({
      workspaceId: 'W2',
      channels: ['C9'],
      comment: '',
      paths: await queueFiles(dirs, 1, 'other'),
    });
    await fake.attempt(2);
    await pause();
    expect(fake.inFlight().map((a) => a.item.id)).toEqual([
      long.items[0]!.id,
      long.items[1]!.id,
      other.items[0]!.id,
    ]);
    // First in, first out, two large files at a time, to the end of the line.
    for (let n = 0; n < 41; n++) (await fake.attempt(n)).answer(delivered(`F${n}`));
    await waitFor(() => queue.list().every((i) => i.state === 'delivered'), 'all delivered');
    const w1 = fake.started.map((a) => a.item.id).filter((id) => id !== other.items[0]!.id);
    expect(w1).toEqual(long.items.map((i) => i.id));
  });

  it("a share's waiting files are prepared ahead, the next ten, and each later one once it is among the next ten", async () => {
    const prepared: string[] = [];
    const { queue, fake } = await openFakeQueue(dirs, {
      concurrency: () => 1,
      maxFileBytes: LARGE_FILE_LIMIT,
      completeShare: async (items: QueueItem[]) => items.map(() => delivered()),
      prepare: (item) => {
        prepared.push(item.name);
      },
    });
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, 25, 'shot'),
    });
    await fake.attempt(0);
    await pause();
    const names = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `shot-${from + i}.txt`);
    expect(prepared).toEqual(names(1, 10));
    // The first file hands over to its share: its slot goes to the next, and one more file
    // comes within ten of the front.
    const first = await fake.attempt(0);
    void first.hooks.awaitShare?.();
    await fake.attempt(1);
    await pause();
    expect(prepared).toEqual(names(1, 11));
  });
});
