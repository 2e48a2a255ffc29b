// Shared by the queue's end-to-end tests and the crash driver: the real queue, history and
// upload engine, against the reference service on 127.0.0.1.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadJobFor } from '../../main/core/delivery/delivery';
import { type HistoryStore, openHistoryStore } from '../../main/core/history/history-store';
import type { QueueItem } from '../../main/core/model';
import {
  openUploadQueue,
  type QueueDeps,
  type UploadQueue,
} from '../../main/core/queue/upload-queue';
import { uploadOnce } from '../../main/core/upload/engine';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';

export const TEST_TOKEN = 'xoxb-test-token';

export interface TestFile {
  path: string;
  sha256: string;
  size: number;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Files with contents no other test has, so service records can be told apart by sha256. */
export async function makeFiles(dir: string, count: number, size = 32 * 1024): Promise<TestFile[]> {
  await mkdir(dir, { recursive: true });
  const files: TestFile[] = [];
  for (let i = 0; i < count; i++) {
    const data = randomBytes(size);
    const path = join(dir, `file-${String(i).padStart(2, '0')}.bin`);
    await writeFile(path, data);
    files.push({ path, sha256: sha256(data), size });
  }
  return files;
}

export interface RealQueueOptions {
  dir: string;
  baseUrl: string;
  /** Read on every attempt, so a test can replace the token. */
  token?: () => string;
  transport?: Transport;
  idleTimeoutMs?: number;
  queue?: Partial<Omit<QueueDeps, 'dir' | 'runAttempt' | 'history'>>;
}

export interface RealQueue {
  queue: UploadQueue;
  history: HistoryStore;
  close(): Promise<void>;
}

/** The queue wired to the engine the way the app does it. */
export async function openRealQueue(opts: RealQueueOptions): Promise<RealQueue> {
  const transport = opts.transport ?? createNodeTransport();
  const token = opts.token ?? (() => TEST_TOKEN);
  const history = await openHistoryStore({ dir: opts.dir });
  const queue = await openUploadQueue({
    dir: opts.dir,
    history,
    concurrency: () => 3,
    maxFileBytes: () => 1024 * 1024 * 1024,
    retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 50 },
    closeGraceMs: 100,
    ...opts.queue,
    runAttempt: (item, hooks) =>
      uploadOnce(uploadJobFor(item, opts.baseUrl, token()), {
        transport,
        signal: hooks.signal,
        onProgress: (sent) => hooks.onProgress(sent),
        beforeBodyComplete: hooks.beforeBodyComplete,
        ...(opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
      }),
  });
  return {
    queue,
    history,
    async close() {
      await queue.close();
      await history.close();
    },
  };
}

/** How many times the service recorded each file's contents. */
export function postedCounts(
  uploads: readonly { sha256: string }[],
  files: readonly TestFile[],
): number[] {
  return files.map((f) => uploads.filter((u) => u.sha256 === f.sha256).length);
}

export function byPath(items: readonly QueueItem[], files: readonly TestFile[]): QueueItem[] {
  return files.map((f) => {
    const item = items.find((i) => i.path === f.path);
    if (!item) throw new Error(`${f.path} is not in the queue`);
    return item;
  });
}

/** A transport whose request bodies trickle out, so a test can act while a body is being sent. */
export function slowBodyTransport(inner: Transport, pauseMs: number): Transport {
  return {
    request(req) {
      if (!req.body) return inner.request(req);
      const source = req.body;
      const body = (async function* () {
        for await (const chunk of source) {
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
          yield chunk;
        }
      })();
      return inner.request({ ...req, body });
    },
  };
}
