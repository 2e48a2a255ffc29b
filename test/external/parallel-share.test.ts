// A share of several files on Slack's external protocol asks for every file's upload URL at
// once (step 1, never more than 10 requests open) and sends the bytes (step 2) of several files
// at once, and still posts one message with every file, once. The CLI's direct mode counts the
// setting in slots of bytes in flight (byte-budget.ts: small files all at once, files of a slot
// or more at most the setting); the app's queue counts files, at most the setting. The built
// CLI and the app's queue, over real HTTP; the reference service
// counts the requests of each kind it had open at one time. Answers are held back (a 'slow'
// fault, or a 'gather' fault where all of them should be open at once) so that files which may
// overlap do overlap.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import type { QueueItem } from '../../main/core/model';
import { SLOT_BYTES } from '../../main/core/upload/external/byte-budget';
import { jsonLines, runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { calls, makeFile, openApp, sharedCounts, type TestFile, TOKEN } from './helpers';

let dir: string;
let service: ReferenceService;
let log: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-parallel-share-'));
  log = [];
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  service.clearFaults();
  service.resetTraffic();
});

async function tenFiles(prefix: string, count = 10, size = 20_000): Promise<TestFile[]> {
  const made: TestFile[] = [];
  for (let i = 0; i < count; i += 1) {
    made.push(await makeFile(join(dir, prefix), `shot-${i}.png`, size + i));
  }
  return made;
}

/** The messages that hold any of these files. */
function messagesOf(files: TestFile[]) {
  const ids = new Set(
    service
      .uploads()
      .filter((u) => files.some((f) => f.sha256 === u.sha256))
      .map((u) => u.id),
  );
  return service.messages().filter((m) => m.files.some((f) => ids.has(f)));
}

/** The saved concurrency setting, as the app's preferences write it. */
async function saveConcurrency(dataDir: string, concurrency: number): Promise<void> {
  const app = await openApp({ dataDir });
  try {
    await app.setPreferences({ concurrency });
  } finally {
    await app.close();
  }
}

function sendExternal(dataDir: string, files: TestFile[]) {
  return runCli(
    [
      'send',
      '--base-url',
      service.url,
      '--protocol',
      'external',
      '--channels',
      'C0DESIGN',
      '--comment',
      'Ten screenshots',
      '--json',
      ...files.map((f) => f.path),
    ],
    { env: { TRAYSHARE_DATA_DIR: dataDir, TRAYSHARE_TOKEN: TOKEN } },
  );
}

const slowUploads = (times: number) =>
  service.injectFault({ method: 'upload', fault: { kind: 'slow', delayMs: 300 }, times });

const STEP_ONE = 'files.getUploadURLExternal';

// Where a test counts how many requests the client keeps open at once, the answers are held
// until that many wait (the reference service's gather fault), so the count does not depend on
// how fast a loaded machine sends them; a client that sends fewer at once is answered after the
// fault's longest wait, and the count shows it.
const gatherUploads = (count: number) =>
  service.injectFault({ method: 'upload', fault: { kind: 'gather', count }, times: count });

const gatherStepOne = (count: number) =>
  service.injectFault({ method: STEP_ONE, fault: { kind: 'gather', count }, times: count });

/** The most byte uploads, and step-1 requests, the service had open at one time. */
function peaks() {
  const { peakOf } = service.traffic();
  return { uploads: peakOf.upload ?? 0, stepOne: peakOf[STEP_ONE] ?? 0 };
}

describe('trayshare send --protocol external with ten files', () => {
  it('sends the bytes of ten small files all at once (a tenth of a slot each, within the setting of 3), with every upload URL asked for up front, then posts one message with all ten, once', async () => {
    const files = await tenFiles('cli-three');
    const dataDir = join(dir, 'cli-three-data');
    await saveConcurrency(dataDir, 3);
    const completions = calls(log, 'files.completeUploadExternal');
    const asked = calls(log, STEP_ONE);
    gatherUploads(10);
    gatherStepOne(10);
    service.resetTraffic();
    const run = await sendExternal(dataDir, files);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(10).fill('delivered'));
    // Step 1 takes no byte slot: all ten are asked for at once, each once.
    expect(peaks()).toEqual({ uploads: 10, stepOne: 10 });
    expect(calls(log, STEP_ONE) - asked).toBe(10);
    const messages = messagesOf(files);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([
      [10, 'Ten screenshots'],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(10).fill(1));
    expect(calls(log, 'files.completeUploadExternal') - completions).toBe(1);
    // The message lists the files in the order they were given, whichever finished first.
    const names = messages[0]!.files.map((id) => service.uploads().find((u) => u.id === id)?.name);
    expect(names).toEqual(files.map((f) => f.name));
  });

  it("asks files.info for every file's link at once after the completion, not one by one", async () => {
    const files = await tenFiles('cli-links');
    const dataDir = join(dir, 'cli-links-data');
    await saveConcurrency(dataDir, 1);
    service.injectFault({ method: 'files.info', fault: { kind: 'slow', delayMs: 200 }, times: 10 });
    service.resetTraffic();
    const run = await sendExternal(dataDir, files);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.filter((l) => typeof l.permalink === 'string')).toHaveLength(10);
    const { peakOf, countOf } = service.traffic();
    expect(countOf['files.info']).toBe(10);
    expect(peakOf['files.info']).toBe(10);
  });

  it('a share of fourteen: never more than ten upload URLs asked for at once, each file asked for once', async () => {
    const files = await tenFiles('cli-fourteen', 14);
    const dataDir = join(dir, 'cli-fourteen-data');
    await saveConcurrency(dataDir, 3);
    const asked = calls(log, STEP_ONE);
    gatherStepOne(10);
    service.resetTraffic();
    const run = await sendExternal(dataDir, files);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(14).fill('delivered'));
    expect(peaks().stepOne).toBe(10);
    expect(peaks().uploads).toBeLessThanOrEqual(10);
    expect(calls(log, STEP_ONE) - asked).toBe(14);
    // Two messages (ten files, then four), the comment with the first only.
    expect(messagesOf(files).map((m) => [m.files.length, m.initial_comment])).toEqual([
      [10, 'Ten screenshots'],
      [4, null],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(14).fill(1));
  });

  it('with concurrency 1, files of a whole slot (8 MiB) go one at a time; ten small ones still all at once', async () => {
    const large: TestFile[] = [];
    for (let i = 0; i < 3; i++) {
      large.push(await makeFile(join(dir, 'cli-one-large'), `large-${i}.png`, SLOT_BYTES + i));
    }
    const dataDir = join(dir, 'cli-one-data');
    await saveConcurrency(dataDir, 1);
    slowUploads(3);
    service.resetTraffic();
    const run = await sendExternal(dataDir, large);
    expect(run.code).toBe(0);
    expect(peaks().uploads).toBe(1);
    expect(messagesOf(large).map((m) => m.files.length)).toEqual([3]);
    expect(sharedCounts(service.uploads(), large)).toEqual([1, 1, 1]);

    const small = await tenFiles('cli-one-small');
    gatherUploads(10);
    service.resetTraffic();
    expect((await sendExternal(dataDir, small)).code).toBe(0);
    expect(peaks().uploads).toBe(10);
    expect(messagesOf(small).map((m) => m.files.length)).toEqual([10]);
  });

  it("a file whose step 1 is refused fails alone, with the service's reason; the other nine are posted together, once", async () => {
    const files = await tenFiles('cli-refused');
    const dataDir = join(dir, 'cli-refused-data');
    await saveConcurrency(dataDir, 3);
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'error', error: 'invalid_arguments' },
    });
    const run = await sendExternal(dataDir, files);
    expect(run.code).not.toBe(0);
    const lines = jsonLines(run.stdout);
    const failed = lines.filter((l) => l.outcome !== 'delivered');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.outcome).toBe('failed');
    expect(String(failed[0]!.code ?? failed[0]!.error)).toMatch(/invalid_arguments/);
    expect(lines.filter((l) => l.outcome === 'delivered')).toHaveLength(9);
    const messages = messagesOf(files);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([
      [9, 'Ten screenshots'],
    ]);
    const counts = sharedCounts(service.uploads(), files);
    expect(counts.filter((c) => c === 1)).toHaveLength(9);
    expect(counts.filter((c) => c === 0)).toHaveLength(1);
  });

  it('an upload cut off mid-body is tried again on its own and still goes in the one message', async () => {
    const files = await tenFiles('cli-reset');
    const dataDir = join(dir, 'cli-reset-data');
    await saveConcurrency(dataDir, 3);
    service.injectFault({ method: 'upload', fault: { kind: 'reset-mid-body', afterBytes: 1000 } });
    const run = await sendExternal(dataDir, files);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(10).fill('delivered'));
    expect(messagesOf(files).map((m) => m.files.length)).toEqual([10]);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(10).fill(1));
  });
});

async function waitFor(app: AppService, check: (items: QueueItem[]) => boolean): Promise<void> {
  for (;;) {
    if (check(await app.listQueue())) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a share of ten files through the queue (the app)', () => {
  it('keeps its byte uploads to the concurrency setting, asks for every upload URL up front, and posts one message with all ten, once', async () => {
    // Files of a whole slot each (8 MiB): the concurrency setting's byte budget then lets two
    // go at once at 2, where small files would all go together (ten to a slot).
    const files = await tenFiles('queue-two', 10, SLOT_BYTES);
    const app = await openApp({ dataDir: join(dir, 'queue-two-data') });
    try {
      await app.setPreferences({ concurrency: 2 });
      const ws = await app.addWorkspace({
        name: 'Acme',
        baseUrl: service.url,
        protocol: 'external',
      });
      slowUploads(10);
      gatherStepOne(10);
      service.resetTraffic();
      const asked = calls(log, STEP_ONE);
      const { items } = await app.share({
        target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
        paths: files.map((f) => f.path),
        comment: 'Ten screenshots',
      });
      const ids = new Set(items.map((i) => i.id));
      // Once the third and fourth uploads have begun, every URL is in (the ten were answered
      // together, the first uploads took 300 ms): what the queue view shows then.
      let meanwhile: QueueItem[] | undefined;
      await waitFor(app, (q) => {
        const uploads = service.traffic().countOf.upload ?? 0;
        if (!meanwhile && uploads >= 3 && uploads <= 4) meanwhile = q.filter((i) => ids.has(i.id));
        return q.filter((i) => ids.has(i.id)).every((i) => i.state === 'delivered');
      });
      // A file whose URL is in but whose bytes wait for a slot is still "queued" (the view:
      // "Waiting for a free slot."), nothing of it sent; none shows as sending or waiting.
      const waiting = meanwhile?.filter((i) => i.state === 'queued') ?? [];
      expect(waiting.length).toBeGreaterThanOrEqual(6);
      expect(waiting.every((i) => i.sent === 0)).toBe(true);
      expect(meanwhile?.filter((i) => i.state === 'waiting')).toEqual([]);
      expect(meanwhile?.filter((i) => i.state === 'sending').length).toBeLessThanOrEqual(4);
      // The eight files waiting for a slot asked for their URLs at once, beside the first two.
      expect(peaks()).toEqual({ uploads: 2, stepOne: 10 });
      expect(calls(log, STEP_ONE) - asked).toBe(10);
      expect(messagesOf(files).map((m) => [m.files.length, m.initial_comment])).toEqual([
        [10, 'Ten screenshots'],
      ]);
      expect(sharedCounts(service.uploads(), files)).toEqual(Array(10).fill(1));
    } finally {
      await app.close();
    }
  });

  it("upload URLs refused while their files wait for a slot: each of those files fails alone with the service's reason, asked once; the other is posted", async () => {
    const files = await tenFiles('queue-refused', 4);
    const app = await openApp({ dataDir: join(dir, 'queue-refused-data') });
    try {
      await app.setPreferences({ concurrency: 1 });
      const ws = await app.addWorkspace({
        name: 'Acme',
        baseUrl: service.url,
        protocol: 'external',
      });
      const asked = calls(log, STEP_ONE);
      // Three of the four asks are refused. At one byte upload at a time, at most one of them is
      // a started file's own: at least two were made for files waiting for their slot.
      service.injectFault({
        method: STEP_ONE,
        fault: { kind: 'error', error: 'invalid_arguments' },
        times: 3,
      });
      const { items } = await app.share({
        target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
        paths: files.map((f) => f.path),
        comment: 'Four screenshots',
      });
      const ids = new Set(items.map((i) => i.id));
      await waitFor(app, (q) =>
        q
          .filter((i) => ids.has(i.id))
          .every((i) => i.state === 'delivered' || i.state === 'failed'),
      );
      const mine = (await app.listQueue()).filter((i) => ids.has(i.id));
      const failed = mine.filter((i) => i.state === 'failed');
      expect(failed).toHaveLength(3);
      for (const f of failed) {
        expect(f.error?.message).toMatch(/invalid_arguments/);
        expect(f.attempts).toBe(1);
      }
      // Each file asked for its URL once: a refusal asked ahead was that file's answer.
      expect(calls(log, STEP_ONE) - asked).toBe(4);
      const posted = files.filter((f) => !failed.some((i) => i.name === f.name));
      expect(messagesOf(files).map((m) => [m.files.length, m.initial_comment])).toEqual([
        [1, 'Four screenshots'],
      ]);
      expect(sharedCounts(service.uploads(), posted)).toEqual([1]);
    } finally {
      await app.close();
    }
  });
});
