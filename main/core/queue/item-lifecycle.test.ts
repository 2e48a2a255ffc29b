// The item lifecycle's scheduling edges (found by mutation testing, docs/mutation.md): a
// concurrency setting below one or with a fraction still works as one slot or rounds down (shown
// with large files, a whole slot each, so the slots are what the count shows), and
// the work a share's waiting files may start early (QueueDeps.prepare) is started once per wait,
// only for shares of several files.
import { describe, expect, it } from 'vitest';
import {
  delivered,
  LARGE_FILE_LIMIT,
  largeQueueFiles,
  openFakeQueue,
  useQueueTestDirs,
  waitFor,
} from '../../../test/queue/kit';
import type { QueueItem } from '../model';

const dirs = useQueueTestDirs('trayshare-lifecycle-');

describe('how many go at once', () => {
  it('a concurrency of 0 (or less) still sends, as one slot: large files one at a time', async () => {
    const { queue, fake } = await openFakeQueue(dirs, {
      concurrency: () => 0,
      maxFileBytes: LARGE_FILE_LIMIT,
    });
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, 2, 'zero'),
    });
    const first = await fake.attempt(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.inFlight()).toHaveLength(1);
    first.answer(delivered());
    (await fake.attempt(1)).answer(delivered());
    await waitFor(() => queue.list().every((i) => i.state === 'delivered'), 'both delivered');
  });

  it('a fractional concurrency rounds down: at 2.7, two large files at once', async () => {
    const { queue, fake } = await openFakeQueue(dirs, {
      concurrency: () => 2.7,
      maxFileBytes: LARGE_FILE_LIMIT,
    });
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, 3, 'frac'),
    });
    await fake.attempt(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.inFlight()).toHaveLength(2);
  });
});

describe('work started early for a share that completes together', () => {
  it('is started once for each waiting file of a share of several, and never for a lone file', async () => {
    const prepared: string[] = [];
    // Large files: at 1, the share's first file goes alone and the other two wait for the slot.
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
      paths: await largeQueueFiles(dirs, 3, 'group'),
    });
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: await largeQueueFiles(dirs, 1, 'lone'),
    });
    await fake.attempt(0);
    // Each state change runs the scheduler again: still once per file.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prepared.sort()).toEqual(['group-1.txt', 'group-2.txt']);
  });
});
