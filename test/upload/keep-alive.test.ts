// Many small files reuse connections: `trayshare send` of a folder of screenshots pays one TCP
// set-up per file sent at once, not one per file. Files go within the concurrency setting's
// byte budget (byte-budget.ts): each slot holds one large file or ten small ones. A request that did not end cleanly (the service refused a file
// before reading it, and cut the connection with the rest of the body unread) does not hand
// that connection to the next file. The built CLI
// against the reference service over real HTTP; the service counts the connections it accepted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../cli/run-cli';
import { makeFile, openApp, sharedCounts, type TestFile, TOKEN } from '../external/helpers';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

let dir: string;
let service: ReferenceService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-keep-alive-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: { maxFileBytes: 64 * 1024 },
    // After an early answer it reads at most this much of the rest, then cuts the connection.
    linger: { bytes: 64 * 1024 },
  });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The app's "uploads at once" setting, which `send --base-url` follows too. */
async function saveConcurrency(concurrency: number): Promise<void> {
  const app = await openApp({ dataDir: join(dir, 'data') });
  try {
    await app.setPreferences({ concurrency });
  } finally {
    await app.close();
  }
}

function send(files: TestFile[], protocol: 'files.upload' | 'external' = 'files.upload') {
  return runCli(
    [
      'send',
      '--base-url',
      service.url,
      '--protocol',
      protocol,
      '--channels',
      'C0GENERAL',
      '--json',
      ...files.map((f) => f.path),
    ],
    { env: { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_TOKEN: TOKEN } },
  );
}

async function smallFiles(prefix: string, n: number): Promise<TestFile[]> {
  const files: TestFile[] = [];
  for (let i = 0; i < n; i++)
    files.push(await makeFile(join(dir, prefix), `${prefix}${i}.png`, 10_240));
  return files;
}

describe('connections kept between requests', () => {
  it('one slot: 40 small files, ten at a time, over at most ten connections, each delivered once', async () => {
    await saveConcurrency(1);
    const files = await smallFiles('one', 40);
    service.resetTraffic();
    const run = await send(files);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(40).fill('delivered'));
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(40).fill(1));
    const { connections, requests, peakInFlight } = service.traffic();
    expect(requests).toBe(40);
    // Each connection carries four files on average: kept, not opened per file.
    expect(connections).toBeLessThanOrEqual(10);
    expect(peakInFlight).toBeLessThanOrEqual(10);
  });

  it('three slots (the default): 40 small files, up to thirty at a time, over at most thirty connections, each delivered once, in file order on stdout', async () => {
    await saveConcurrency(3);
    const files = await smallFiles('three', 40);
    service.resetTraffic();
    const run = await send(files);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(Array(40).fill('delivered'));
    expect(lines.map((l) => l.file)).toEqual(files.map((f) => f.path));
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(40).fill(1));
    const { connections, requests, peakInFlight } = service.traffic();
    expect(requests).toBe(40);
    expect(connections).toBeLessThanOrEqual(30);
    expect(peakInFlight).toBeLessThanOrEqual(30);
  });

  it('a file refused before its body was read: that connection is not used again; the next file opens a fresh one and is delivered', async () => {
    await saveConcurrency(1);
    const files = [
      await makeFile(join(dir, 'refused'), 'a.png', 10_000),
      await makeFile(join(dir, 'refused'), 'too-big.png', 8 * 1024 * 1024),
      await makeFile(join(dir, 'refused'), 'b.png', 10_000),
      await makeFile(join(dir, 'refused'), 'c.png', 10_000),
    ];
    service.resetTraffic();
    const run = await send(files);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.outcome)).toEqual(['delivered', 'failed', 'delivered', 'delivered']);
    expect(String(lines[1]!.code ?? lines[1]!.error)).toMatch(/file_upload_size_restricted/);
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 0, 1, 1]);
    // a.png and the refused file (a whole slot: it waits for a.png, alone) share the first;
    // the refused file's is then closed, and b.png and c.png (small: together) open two more.
    expect(service.traffic()).toMatchObject({ connections: 3, requests: 4 });
  });

  it('the external protocol’s three steps per file reuse connections too', async () => {
    await saveConcurrency(3);
    const files = await smallFiles('ext', 4);
    service.resetTraffic();
    const run = await send(files, 'external');
    expect(run.code).toBe(0);
    const { connections, requests } = service.traffic();
    // Steps 1–2 for each file, one completion, then files.info for each file's link.
    expect(requests).toBe(4 * 2 + 1 + 4);
    // At most one connection per request open at once: the four upload URLs are asked for
    // together (step 1 takes no byte slot), and the byte uploads (three at once, the
    // concurrency setting), the completion and files.info reuse those connections.
    expect(connections).toBeLessThanOrEqual(4);
  });
});
