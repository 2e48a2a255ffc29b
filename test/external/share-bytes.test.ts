// Steps 1–2 of a share without the queue (the CLI's direct mode, share-bytes.ts), over real HTTP
// to the reference service: every upload URL is asked for up front, and a file whose slot came
// after its URL had used half of the upload TTL asks for a fresh one instead of sending to an
// address that may expire under its bytes. Then the share is completed as one message.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadJob } from '../../main/core/upload/attempt';
import { SLOT_BYTES } from '../../main/core/upload/external/byte-budget';
import { completeExternalShare } from '../../main/core/upload/external/complete';
import { type BytesIn, uploadShareBytes } from '../../main/core/upload/external/share-bytes';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { makeFile, sharedCounts, type TestFile, TOKEN } from './helpers';

const STEP_ONE = 'files.getUploadURLExternal';

let dir: string;
let service: ReferenceService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-share-bytes-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  service.clearFaults();
  service.resetTraffic();
});

async function fiveFiles(prefix: string): Promise<TestFile[]> {
  const files: TestFile[] = [];
  // Each a whole byte slot (byte-budget.ts), so at concurrency 1 they go one at a time.
  for (let i = 0; i < 5; i++)
    files.push(await makeFile(join(dir, prefix), `${prefix}-${i}.png`, SLOT_BYTES));
  return files;
}

const jobsOf = (files: TestFile[]): UploadJob[] =>
  files.map((f) => ({
    baseUrl: service.url,
    token: TOKEN,
    channels: ['C0DESIGN'],
    comment: 'Five screenshots',
    file: { path: f.path, name: f.name },
  }));

/** Steps 1–2 for the five files, then one completion: one message of all five, each once. */
async function sendAndComplete(files: TestFile[], uploadTtlMs?: number) {
  const before = service.messages().length;
  const jobs = jobsOf(files);
  const transport = createNodeTransport();
  // One upload at a time, each held 300 ms: the last files wait over a second for their slot.
  service.injectFault({ method: 'upload', fault: { kind: 'slow', delayMs: 300 }, times: 5 });
  const opts = { transport, concurrency: 1, ...(uploadTtlMs ? { uploadTtlMs } : {}) };
  const sent = await uploadShareBytes(jobs, opts);
  expect(sent.map((s) => ('kind' in s ? s.kind : 'bytes in'))).toEqual(Array(5).fill('bytes in'));
  const uploaded = (sent as BytesIn[]).map((s) => ({
    protocol: 'external' as const,
    baseUrl: service.url,
    fileId: s.fileId,
    uploadedAt: s.uploadedAt,
    completing: false,
  }));
  const results = await completeExternalShare(jobs, uploaded, { transport });
  expect(results.map((r) => r.kind)).toEqual(Array(5).fill('delivered'));
  expect(
    service
      .messages()
      .slice(before)
      .map((m) => m.files.length),
  ).toEqual([5]);
  expect(sharedCounts(service.uploads(), files)).toEqual(Array(5).fill(1));
  return service.traffic();
}

describe('a share’s steps 1–2 outside the queue', () => {
  it('asks for each upload URL once, up front, when every file gets its slot in time', async () => {
    const files = await fiveFiles('in-time');
    const traffic = await sendAndComplete(files);
    expect(traffic.countOf).toMatchObject({ [STEP_ONE]: 5, upload: 5 });
    expect(traffic.peakOf.upload).toBe(1);
  });

  it('a file whose URL used half the upload TTL while it waited asks for a new one first, and every file is posted once, together', async () => {
    const files = await fiveFiles('stale');
    // Half of 800 ms: files from the third on waited longer than that for their slot.
    const traffic = await sendAndComplete(files, 800);
    expect(traffic.countOf[STEP_ONE]).toBeGreaterThanOrEqual(7);
    // No byte upload was sent to a stale address: each file's bytes went once.
    expect(traffic.countOf.upload).toBe(5);
  });
});
