// A journal that cannot take a record (a full disk, injected here so every OS runs it; the real
// tmpfs runs are test/cli/full-disk-share.test.ts): the file waits, says so in words, sends no
// byte again before the journal takes records, and no outcome is made known before the
// journal holds it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeClock, useQueueTestDirs } from '../../../test/queue/kit';
import { openHistoryStore } from '../history/history-store';
import { JsonlAppender } from '../history/jsonl-file';
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { JOURNAL_FILE } from './journal';
import type { AttemptHooks } from './queue-api';
import { openUploadQueue, type UploadQueue } from './upload-queue';

const dirs = useQueueTestDirs('trayshare-unwritable-');
let full = false;

// Only the queue's journal fills up; the history beside it keeps working.
const realAppend = JsonlAppender.prototype.append;
vi.spyOn(JsonlAppender.prototype, 'append').mockImplementation(function (
  this: JsonlAppender,
  values,
  opts,
) {
  if (full && this.path.endsWith(JOURNAL_FILE)) {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
    });
    return Promise.reject(error);
  }
  return realAppend.call(this, values, opts);
});

afterEach(() => {
  full = false;
});

/** An attempt like the engine's: it waits for `go`, journals "body complete", then answers. */
function gatedAttempts() {
  const calls: QueueItem[] = [];
  let open: (() => void)[] = [];
  let afterBody: (() => Promise<void>) | undefined;
  return {
    calls,
    go: () => {
      for (const resolve of open) resolve();
      open = [];
    },
    afterBody: (step: () => Promise<void>) => {
      afterBody = step;
    },
    runAttempt: async (item: QueueItem, hooks: AttemptHooks): Promise<AttemptResult> => {
      calls.push(item);
      await new Promise<void>((resolve) => open.push(resolve));
      await hooks.beforeBodyComplete();
      await afterBody?.();
      return {
        kind: 'delivered',
        file: { id: `F${calls.length}`, permalink: `https://example.test/F${calls.length}` },
      } as AttemptResult;
    },
  };
}

async function openQueue(dir: string, attempts: ReturnType<typeof gatedAttempts>) {
  const clock = fakeClock();
  const history = await openHistoryStore({ dir });
  const queue = await openUploadQueue({
    dir,
    runAttempt: attempts.runAttempt,
    concurrency: () => 1,
    maxFileBytes: () => 1024 * 1024,
    now: clock.now,
    sleep: clock.sleep,
    history,
    closeGraceMs: 50,
  });
  dirs.open.push({ queue, history });
  return { queue, clock };
}

async function oneFile(): Promise<string> {
  const folder = join(dirs.root, 'files');
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'report.txt');
  await writeFile(path, 'numbers\n');
  return path;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const only = (queue: UploadQueue) => queue.list()[0] as QueueItem;

describe('a journal that cannot be written', () => {
  it('the file waits, named and explained; no byte goes again until the journal takes records; then it is delivered', async () => {
    const dir = join(dirs.root, 'data');
    const attempts = gatedAttempts();
    const { queue, clock } = await openQueue(dir, attempts);
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [await oneFile()],
    });
    await until(() => attempts.calls.length === 1, 'the first attempt');
    full = true;
    attempts.go();
    await until(() => only(queue).state === 'waiting', 'the wait');
    expect(only(queue).error).toMatchObject({
      code: 'disk_full',
      message: `Trayshare cannot write to ${dir}: the disk is full. Free some space; the files wait.`,
    });

    // Still full at the next try: nothing is sent; it waits longer.
    clock.advance(1000);
    await until(
      () => only(queue).state === 'waiting' && (only(queue).retryAt ?? 0) > clock.now(),
      'the second wait',
    );
    expect(attempts.calls).toHaveLength(1);

    full = false;
    clock.advance(2000);
    await until(() => attempts.calls.length === 2, 'the attempt after space came back');
    attempts.go();
    await until(() => only(queue).state === 'delivered', 'the delivery');
    await queue.close();

    const again = await openQueue(dir, gatedAttempts());
    expect(only(again.queue).state).toBe('delivered');
  });

  it('an outcome the journal cannot take is not made known, and is recorded (not sent again) once it can', async () => {
    const dir = join(dirs.root, 'data');
    const attempts = gatedAttempts();
    const { queue, clock } = await openQueue(dir, attempts);
    const finished: QueueItem[] = [];
    queue.onFinished((item) => finished.push(item));
    // The service answers after the disk filled.
    attempts.afterBody(async () => {
      full = true;
    });
    await queue.enqueue({
      workspaceId: 'W1',
      channels: ['C1'],
      comment: '',
      paths: [await oneFile()],
    });
    await until(() => attempts.calls.length === 1, 'the attempt');
    attempts.go();
    await until(() => only(queue).state === 'waiting', 'the held outcome');
    expect(only(queue).error?.message).toBe(
      `Trayshare cannot write to ${dir}: the disk is full, so it could not record that report.txt was delivered. Free some space; until it is recorded it counts as "may have been delivered".`,
    );
    expect(finished).toEqual([]);

    full = false;
    clock.advance(1000);
    await until(() => only(queue).state === 'delivered', 'the record');
    expect(only(queue).file?.id).toBe('F1');
    expect(only(queue).error).toBeUndefined();
    // Made known once recorded (after its history line is written).
    await until(() => finished.length > 0, 'the finished event');
    expect(finished.map((i) => i.state)).toEqual(['delivered']);
    expect(attempts.calls).toHaveLength(1);
    await queue.close();

    const again = await openQueue(dir, gatedAttempts());
    expect(only(again.queue)).toMatchObject({ state: 'delivered', file: { id: 'F1' } });
  });
});
