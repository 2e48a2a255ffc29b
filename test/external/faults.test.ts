// Faults at each of the external protocol's three steps, through the app's core (settings,
// durable queue, engine) against the reference service: every item ends as the contract says,
// and no file is ever shared twice. Steps 1 and 2 share nothing, so any fault there ends in a
// retry and one share; a lost answer to step 3 is asked again with the same file_id, which the
// service completes at most once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import type { QueueItem, Workspace } from '../../main/core/model';
import { type Fault, type ReferenceService, startReferenceService } from '../service/server';
import { CHANNELS, calls, makeFile, openApp, sharedCounts, type TestFile } from './helpers';

// Short enough that a slow answer is given up on quickly, long enough for a loaded machine.
const IDLE_TIMEOUT_MS = 600;
const PAST_IDLE_MS = 1500;

let dir: string;
let service: ReferenceService;
let log: string[];
let app: AppService;
let workspace: Workspace;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-external-faults-'));
  log = [];
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    log: (line) => log.push(line),
  });
  app = await openApp({ dataDir: join(dir, 'app'), idleTimeoutMs: IDLE_TIMEOUT_MS });
  workspace = await app.addWorkspace({ name: 'Acme', baseUrl: service.url, protocol: 'external' });
});

afterEach(() => {
  service.clearFaults();
});

afterAll(async () => {
  await app?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

let fileNumber = 0;

/** Shares one new file to three channels with a comment and waits until its item is finished. */
async function shareOne(
  a: AppService,
  ws: Workspace,
): Promise<{ item: QueueItem; file: TestFile }> {
  const file = await makeFile(join(dir, 'files'), `file-${++fileNumber}.bin`);
  const { items, refused } = await a.share({
    target: { workspaceId: ws.id, channels: CHANNELS },
    comment: 'From the fault tests',
    paths: [file.path],
  });
  expect(refused).toEqual([]);
  await a.settled();
  const item = (await a.listQueue()).find((i) => i.id === items[0]!.id);
  if (!item) throw new Error('the item left the queue');
  return { item, file };
}

const FAULTS: [string, Fault][] = [
  ['a reset mid-body', { kind: 'reset-mid-body', afterBytes: 1 }],
  ['503 with Retry-After', { kind: 'status', status: 503, retryAfter: 1 }],
  ['429 rate limit', { kind: 'ratelimit', retryAfter: 1 }],
  ['an answer slower than the idle timeout', { kind: 'slow', delayMs: PAST_IDLE_MS }],
  ['truncated JSON', { kind: 'truncated-json' }],
  ['a 502 HTML page', { kind: 'proxy-html', status: 502 }],
  ['a reset after the whole body', { kind: 'reset-after-body' }],
];

/** Faults after which the service did the work but the answer never arrived whole. */
const ANSWER_LOST = new Set(['slow', 'truncated-json', 'proxy-html', 'reset-after-body']);

describe.each([
  ['step 1 (files.getUploadURLExternal)', 'files.getUploadURLExternal'],
  ['step 2 (the upload_url POST)', 'upload'],
])('a fault at %s shares nothing: the item is tried again and delivered once', (_, method) => {
  it.each(FAULTS)('%s', async (_name, fault) => {
    service.injectFault({ method, fault });
    const { item, file } = await shareOne(app, workspace);
    expect(item.state).toBe('delivered');
    expect(item.file?.id).toMatch(/^F/);
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
    const recorded = service.uploads().find((u) => u.sha256 === file.sha256);
    expect(recorded).toMatchObject({
      channels: CHANNELS,
      initial_comment: 'From the fault tests',
      size: file.size,
    });
  });
});

describe('a fault at step 3 (files.completeUploadExternal)', () => {
  it.each(FAULTS)('%s: shared exactly once, the bytes sent once', async (_name, fault) => {
    const askedBefore = calls(log, 'files.getUploadURLExternal');
    service.injectFault({ method: 'files.completeUploadExternal', fault });
    const { item, file } = await shareOne(app, workspace);

    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
    // Step 3 was repeated with the same file_id: no new upload address, no second upload.
    expect(calls(log, 'files.getUploadURLExternal') - askedBefore).toBe(1);
    if (ANSWER_LOST.has(fault.kind)) {
      // The service shared it and the answer was lost: asking again finds it completed.
      expect(item).toMatchObject({
        state: 'unknown',
        error: { class: 'unknown-outcome', code: 'completed_earlier' },
      });
      expect(item.error?.message).toMatch(/most likely shared it/);
      expect(item.error?.message).toMatch(/check the channel/);
    } else {
      // Refused or cut off before the service processed it: tried again and shared now.
      expect(item.state).toBe('delivered');
    }
  });
});

describe('an upload address that expires', () => {
  let expiring: ReferenceService;
  let expiringWs: Workspace;
  let patient: AppService;
  const expiringLog: string[] = [];

  beforeAll(async () => {
    expiring = await startReferenceService({
      dataDir: join(dir, 'expiring'),
      config: { uploadUrlTtlMs: 800 },
      log: (line) => expiringLog.push(line),
    });
    // Waits longer than the upload address lives, so the expiry (not a timeout) is what it meets.
    patient = await openApp({ dataDir: join(dir, 'patient'), idleTimeoutMs: 10_000 });
    expiringWs = await patient.addWorkspace({
      name: 'Expiring',
      baseUrl: expiring.url,
      protocol: 'external',
    });
  });

  afterAll(async () => {
    await patient?.close();
    await expiring?.close();
  });

  it('before the bytes are sent (HTTP 410): a new address, delivered once', async () => {
    expiring.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'slow', delayMs: 1600 },
    });
    expiringLog.length = 0;
    const { item, file } = await shareOne(patient, expiringWs);
    expect(item.state).toBe('delivered');
    expect(sharedCounts(expiring.uploads(), [file])).toEqual([1]);
    expect(expiringLog.filter((l) => l.endsWith('not completed in time: discarded'))).toHaveLength(
      1,
    );
    expect(calls(expiringLog, 'files.getUploadURLExternal')).toBe(2);
    expect(calls(expiringLog, 'files.completeUploadExternal')).toBe(1);
  });

  it('after the bytes were received, before step 3 (file_not_found): sent again, delivered once', async () => {
    expiring.injectFault({ method: 'upload', fault: { kind: 'slow', delayMs: 1600 } });
    expiringLog.length = 0;
    const { item, file } = await shareOne(patient, expiringWs);
    expect(item.state).toBe('delivered');
    expect(sharedCounts(expiring.uploads(), [file])).toEqual([1]);
    expect(expiringLog.filter((l) => l.endsWith('not completed in time: discarded'))).toHaveLength(
      1,
    );
    // The first step 3 found the bytes gone (file_not_found); the second shared the new upload.
    expect(calls(expiringLog, 'files.getUploadURLExternal')).toBe(2);
    expect(calls(expiringLog, 'files.completeUploadExternal')).toBe(2);
  });
});

describe('a service that retired files.upload', () => {
  it('fails with the retired marker and a switch message; switching the workspace and retrying delivers it once', async () => {
    const legacy = await app.addWorkspace({ name: 'Legacy', baseUrl: service.url });
    expect(legacy.protocol).toBe('files.upload');
    service.injectFault({
      method: 'files.upload',
      fault: { kind: 'error', error: 'method_deprecated' },
    });
    const { item, file } = await shareOne(app, legacy);
    expect(item).toMatchObject({
      state: 'failed',
      error: { class: 'retired', code: 'method_deprecated' },
    });
    expect(item.error?.message).toMatch(/no longer offers files\.upload/);
    expect(item.error?.message).toMatch(/external/);
    expect(sharedCounts(service.uploads(), [file])).toEqual([0]);

    // What the UI's "Switch workspace" button does.
    await app.updateWorkspace(legacy.id, { protocol: 'external' });
    await app.retryItem(item.id);
    await app.settled();
    const again = (await app.listQueue()).find((i) => i.id === item.id);
    expect(again?.state).toBe('delivered');
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
  });
});
