// The queue's unit tests' kit: a queue on a fresh folder whose attempts the test answers one by
// one, and a sleep/clock pair the test advances, so scheduling is checked without real delays.
// (test/queue/helpers.ts wires the real engine instead, for tests over HTTP.)
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type HistoryStore, openHistoryStore } from '../../main/core/history/history-store';
import type { QueueItem } from '../../main/core/model';
import {
  type AttemptHooks,
  openUploadQueue,
  type QueueDeps,
  type UploadQueue,
} from '../../main/core/queue/upload-queue';
import type { AttemptResult } from '../../main/core/upload/attempt';
import { SLOT_BYTES } from '../../main/core/upload/external/byte-budget';

export { allFinished, workspacesNeedingToken } from './finished';

export interface QueueTestDirs {
  /** A fresh folder for each test, removed after it. */
  readonly root: string;
  /** Queues and histories the test opened: closed after it. */
  readonly open: { queue: UploadQueue; history: HistoryStore }[];
}

/** The folder and clean-up every queue test file needs (call at the top level of the file). */
export function useQueueTestDirs(prefix: string): QueueTestDirs {
  const dirs = { root: '', open: [] as QueueTestDirs['open'] };
  beforeEach(async () => {
    dirs.root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const { queue, history } of dirs.open.splice(0)) {
      await queue.close();
      await history.close();
    }
    await rm(dirs.root, { recursive: true, force: true });
  });
  return dirs;
}

/**
 * `count` files `<prefix>-<i>.txt` in the test's folder, each holding its own name: small, or
 * `size` bytes long (sparse, so a large one costs no disk).
 */
export async function queueFiles(
  dirs: QueueTestDirs,
  count: number,
  prefix = 'file',
  size?: number,
): Promise<string[]> {
  const dir = join(dirs.root, 'files');
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `${prefix}-${i}.txt`);
    await writeFile(path, `${prefix} ${i}\n`);
    if (size !== undefined) await truncate(path, size);
    paths.push(path);
  }
  return paths;
}

/**
 * `count` files of a whole slot of the byte budget (8 MiB): the concurrency setting's N of them
 * go at once, and at 1 each goes strictly alone. A queue sending them needs `LARGE_FILE_LIMIT`.
 */
export const largeQueueFiles = (dirs: QueueTestDirs, count: number, prefix = 'large') =>
  queueFiles(dirs, count, prefix, SLOT_BYTES);

/** A maxFileBytes that lets largeQueueFiles in. */
export const LARGE_FILE_LIMIT = () => 2 * SLOT_BYTES;

export interface FakeQueue {
  queue: UploadQueue;
  history: HistoryStore;
  fake: FakeAttempts;
  clock: FakeClock;
  dir: string;
}

export type FakeQueueOptions = Partial<QueueDeps> & {
  /** The queue's folder; `data` under the test's folder when not given. */
  dir?: string;
  fake?: FakeAttempts;
  clock?: FakeClock;
};

/**
 * A queue and its history on the test's folder, answered by `fake`, timed by `clock`: one
 * attempt at a time, three tries, short backoffs. Closed after the test.
 */
export async function openFakeQueue(
  dirs: QueueTestDirs,
  opts: FakeQueueOptions = {},
): Promise<FakeQueue> {
  const {
    dir = join(dirs.root, 'data'),
    fake = fakeAttempts(),
    clock = fakeClock(),
    ...deps
  } = opts;
  const history = await openHistoryStore({ dir });
  const queue = await openUploadQueue({
    dir,
    runAttempt: fake.runAttempt,
    concurrency: () => 1,
    maxFileBytes: () => 1024 * 1024,
    now: clock.now,
    sleep: clock.sleep,
    retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 },
    history,
    closeGraceMs: 50,
    ...deps,
  });
  dirs.open.push({ queue, history });
  return { queue, history, fake, clock, dir };
}

/** Checks `check` up to 2000 times, 2 ms apart, then fails naming `what`. */
export async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface FakeAttempt {
  item: QueueItem;
  hooks: AttemptHooks;
  /** Settled with this answer (later answers are ignored). */
  answer(result: AttemptResult): void;
  /** Runs the queue's "body complete" hook, as the engine does before the last bytes. */
  completeBody(): Promise<void>;
  /** True once answered (including by an abort). */
  readonly done: boolean;
}

export interface FakeAttempts {
  runAttempt: (item: QueueItem, hooks: AttemptHooks) => Promise<AttemptResult>;
  /** Every attempt started so far, in start order. */
  readonly started: FakeAttempt[];
  /** Attempts not answered yet. */
  inFlight(): FakeAttempt[];
  /** Resolves with the n-th attempt (0-based) once it has started. */
  attempt(n: number): Promise<FakeAttempt>;
}

/** Like the engine, an aborted attempt answers 'cancelled' (or 'unknown' once its body is complete). */
export function fakeAttempts(): FakeAttempts {
  const started: FakeAttempt[] = [];
  const waiters: { n: number; resolve: (a: FakeAttempt) => void }[] = [];
  return {
    started,
    inFlight: () => started.filter((a) => !a.done),
    attempt(n) {
      const a = started[n];
      if (a) return Promise.resolve(a);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    runAttempt(item, hooks) {
      return new Promise<AttemptResult>((resolve) => {
        let done = false;
        const attempt: FakeAttempt = {
          item,
          hooks,
          answer(result) {
            if (done) return;
            done = true;
            resolve(result);
          },
          completeBody: () => hooks.beforeBodyComplete(),
          get done() {
            return done;
          },
        };
        hooks.signal.addEventListener('abort', () => attempt.answer({ kind: 'cancelled' }), {
          once: true,
        });
        started.push(attempt);
        for (const w of waiters.filter((w) => w.n === started.length - 1)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(attempt);
        }
      });
    },
  };
}

export interface FakeClock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Moves time on and wakes every sleep that is due. */
  advance(ms: number): void;
  /** Sleeps not yet woken or aborted. */
  pending(): number;
}

export function fakeClock(start = 1_000_000): FakeClock {
  let time = start;
  const sleeps: { at: number; resolve: () => void }[] = [];
  return {
    now: () => time,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        const entry = { at: time + ms, resolve };
        sleeps.push(entry);
        signal?.addEventListener(
          'abort',
          () => {
            sleeps.splice(sleeps.indexOf(entry), 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    advance(ms) {
      time += ms;
      for (const s of sleeps.filter((s) => s.at <= time)) {
        sleeps.splice(sleeps.indexOf(s), 1);
        s.resolve();
      }
    },
    pending: () => sleeps.length,
  };
}

export const delivered = (id = 'F1'): AttemptResult => ({
  kind: 'delivered',
  file: { id, permalink: `https://example.test/files/${id}` },
});

export const failure = (
  cls: NonNullable<Extract<AttemptResult, { kind: 'failed' }>['reason']>['class'],
  code: string,
  extra: { retryAfterMs?: number } = {},
): AttemptResult => ({
  kind: 'failed',
  reason: { class: cls, code, message: `test failure ${code}`, ...extra },
});
