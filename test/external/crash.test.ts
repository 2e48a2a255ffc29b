// A real crash inside the external protocol: a process working the queue is SIGKILLed at
// step 3, then the built CLI (`trayshare queue --run`) opens the same queue. With the
// checkpoint journaled after step 2, it goes on at step 3 with the same file_id: the service
// sees no second upload address and no second byte upload, and shares the file once. A step 3
// that may have gone out is settled through files.info, never by sending it again.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueItem } from '../../main/core/model';
import { runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { CHANNELS, calls, makeFile, sharedCounts, type TestFile, TOKEN } from './helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const driver = fileURLToPath(new URL('./crash-driver.ts', import.meta.url));

let root: string;
let service: ReferenceService;
let log: string[];
const children = new Set<ChildProcess>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-external-crash-'));
  log = [];
  service = await startReferenceService({
    dataDir: join(root, 'service'),
    log: (line) => log.push(line),
  });
});

afterEach(() => {
  service.clearFaults();
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service.close();
  await rm(root, { recursive: true, force: true });
});

// node --import tsx rather than npx: the driver is then this test's own child, so SIGKILL hits
// the process that holds the queue.
async function runDriver(config: object, name: string): Promise<NodeJS.Signals | null> {
  const configPath = join(root, `${name}.json`);
  await writeFile(configPath, JSON.stringify(config));
  const child = spawn(process.execPath, ['--import', 'tsx', driver, configPath], {
    cwd: repo,
    env: { ...process.env, TRAYSHARE_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const { signal } = await new Promise<{ signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (_code, signal) => {
      children.delete(child);
      resolve({ signal });
    });
  });
  if (signal !== 'SIGKILL') throw new Error(`the driver was not killed: ${stderr}`);
  return signal;
}

/** From here on, any new upload address or byte upload is refused and shows in the log. */
function trapNewUploads(): void {
  for (const method of ['files.getUploadURLExternal', 'upload']) {
    service.injectFault({ method, fault: { kind: 'status', status: 418 }, times: 10 });
  }
}

const trapped = () => log.filter((line) => line.includes(': injected fault'));

async function resumeWithCli(dataDir: string): Promise<QueueItem[]> {
  const run = await runCli(['queue', '--run', '--json'], {
    env: { TRAYSHARE_DATA_DIR: dataDir, TRAYSHARE_TOKEN: TOKEN },
  });
  expect(run.stderr).not.toContain(TOKEN);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as QueueItem[];
}

/**
 * Makes three files, `<prefix>1.bin` to `<prefix>3.bin` in `folder`, and shares them as one group
 * to #design through the driver, killed at `killAt`; `name` names its data folder and its log.
 */
async function groupKilledAt(
  name: string,
  killAt: string,
  made: { prefix: string; bytes: number; folder?: string },
  options: { concurrency?: number } = {},
): Promise<{ files: TestFile[]; dataDir: string; messagesBefore: number }> {
  const files = [];
  for (const n of [1, 2, 3]) {
    files.push(
      await makeFile(join(root, made.folder ?? 'files'), `${made.prefix}${n}.bin`, made.bytes),
    );
  }
  const dataDir = join(root, name);
  const messagesBefore = service.messages().length;
  await runDriver(
    {
      dataDir,
      baseUrl: service.url,
      channels: ['C0DESIGN'],
      paths: files.map((f) => f.path),
      killAt,
      ...options,
    },
    name,
  );
  return { files, dataDir, messagesBefore };
}

/** The messages made since `before`, as [files, comment]. */
const messagesSince = (before: number) =>
  service
    .messages()
    .slice(before)
    .map((m) => [m.files.length, m.initial_comment]);

describe('external protocol: crash and resume', () => {
  it('killed between step 2 and step 3: the CLI resumes at step 3 and the file is shared once, its bytes sent once', async () => {
    const file = await makeFile(join(root, 'files'), 'before.bin', 256 * 1024);
    const dataDir = join(root, 'before');
    await runDriver(
      {
        dataDir,
        baseUrl: service.url,
        channels: CHANNELS,
        paths: [file.path],
        killAt: 'before-step-3',
      },
      'before',
    );
    expect(sharedCounts(service.uploads(), [file])).toEqual([0]);
    expect(calls(log, 'files.getUploadURLExternal')).toBe(1);

    trapNewUploads();
    const logFrom = log.length;
    const items = await resumeWithCli(dataDir);
    expect(items.map((i) => [i.name, i.state])).toEqual([['before.bin', 'delivered']]);
    const resumed = log.slice(logFrom);
    // The completion, then its link (Slack's completion answer carries none).
    expect(resumed.filter((l) => l.startsWith('POST '))).toEqual([
      'POST /api/files.completeUploadExternal',
      'POST /api/files.info',
    ]);
    expect(trapped()).toEqual([]);
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
    expect(service.uploads().find((u) => u.sha256 === file.sha256)).toMatchObject({
      name: 'before.bin',
      size: file.size,
      channels: CHANNELS,
      initial_comment: 'crash test',
    });
  });

  it('killed after step 3 was answered: the CLI asks files.info, finds the share, and reports it delivered with its link, never completing again', async () => {
    const file = await makeFile(join(root, 'files'), 'after.bin', 64 * 1024);
    const dataDir = join(root, 'after');
    await runDriver(
      {
        dataDir,
        baseUrl: service.url,
        channels: CHANNELS,
        paths: [file.path],
        killAt: 'after-step-3',
      },
      'after',
    );
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);

    trapNewUploads();
    const logFrom = log.length;
    const items = await resumeWithCli(dataDir);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'after.bin', state: 'delivered' });
    expect(items[0]!.file?.permalink).toBe(
      `${service.url}/files/U0TEST/${items[0]!.file?.id}/after.bin`,
    );
    expect(log.slice(logFrom).filter((l) => l.startsWith('POST '))).toEqual([
      'POST /api/files.info',
    ]);
    expect(trapped()).toEqual([]);
    expect(sharedCounts(service.uploads(), [file])).toEqual([1]);
  });

  /**
   * Shares three files as one group, kills the process at `killAt`, checks what the service got,
   * then resumes with the CLI: the items it ended with, and what the CLI asked for.
   */
  async function killGroupThenResume(
    prefix: string,
    killAt: 'before-step-3' | 'after-step-3',
  ): Promise<{
    items: QueueItem[];
    posts: string[];
    files: TestFile[];
    messagesBefore: number;
  }> {
    const { files, dataDir, messagesBefore } = await groupKilledAt(`group-${killAt}`, killAt, {
      prefix,
      bytes: 32 * 1024,
    });
    expect(sharedCounts(service.uploads(), files)).toEqual(
      killAt === 'before-step-3' ? [0, 0, 0] : [1, 1, 1],
    );
    trapNewUploads();
    const logFrom = log.length;
    const items = await resumeWithCli(dataDir);
    const posts = log.slice(logFrom).filter((l) => l.startsWith('POST '));
    return { items, posts, files, messagesBefore };
  }

  it('a share of 3 files killed after steps 1-2: the CLI completes the group once, as one message, without sending bytes again', async () => {
    const { items, posts, files, messagesBefore } = await killGroupThenResume('g', 'before-step-3');
    expect(items.map((i) => [i.name, i.state])).toEqual([
      ['g1.bin', 'delivered'],
      ['g2.bin', 'delivered'],
      ['g3.bin', 'delivered'],
    ]);
    // One completion, then each file's link.
    expect(posts).toEqual([
      'POST /api/files.completeUploadExternal',
      ...Array(3).fill('POST /api/files.info'),
    ]);
    expect(trapped()).toEqual([]);
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 1, 1]);
    expect(messagesSince(messagesBefore)).toEqual([[3, 'crash test']]);
  });

  it('a share of 3 files killed after its completion was answered: files.info shows the message, the whole group is delivered and never completed again', async () => {
    const { items, posts, files, messagesBefore } = await killGroupThenResume('h', 'after-step-3');
    expect(items.map((i) => [i.name, i.state, i.error?.code])).toEqual([
      ['h1.bin', 'delivered', undefined],
      ['h2.bin', 'delivered', undefined],
      ['h3.bin', 'delivered', undefined],
    ]);
    // Only questions: a completion of one file of the group alone could post it twice.
    expect(posts).toEqual(Array(3).fill('POST /api/files.info'));
    expect(trapped()).toEqual([]);
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 1, 1]);
    expect(messagesSince(messagesBefore)).toEqual([[3, 'crash test']]);
  });

  it("a share of 3 at concurrency 1 killed just before the second file's bytes, with the waiting files' upload URLs asked for: the CLI asks those two again, sends each file's bytes once, and posts one message", async () => {
    // The first file's bytes take a while: the two behind it ask for their URLs meanwhile.
    service.injectFault({ method: 'upload', fault: { kind: 'slow', delayMs: 300 } });
    service.resetTraffic();
    const { files, dataDir, messagesBefore } = await groupKilledAt(
      'waited',
      'second-upload',
      { prefix: 'w', bytes: 32 * 1024 },
      { concurrency: 1 },
    );
    // Step 1 done for all three (two while they waited for the slot), step 2 for the first only.
    expect(service.traffic().countOf).toMatchObject({
      'files.getUploadURLExternal': 3,
      upload: 1,
    });
    expect(service.traffic().countOf['files.completeUploadExternal']).toBeUndefined();
    expect(sharedCounts(service.uploads(), files)).toEqual([0, 0, 0]);

    service.resetTraffic();
    const items = await resumeWithCli(dataDir);
    expect(items.map((i) => [i.name, i.state])).toEqual([
      ['w1.bin', 'delivered'],
      ['w2.bin', 'delivered'],
      ['w3.bin', 'delivered'],
    ]);
    // The first goes on from its checkpoint after step 2 (no new URL, no bytes again); the two
    // URLs asked for before the crash lived in memory only, so those files ask again.
    expect(service.traffic().countOf).toMatchObject({
      'files.getUploadURLExternal': 2,
      upload: 2,
      'files.completeUploadExternal': 1,
    });
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 1, 1]);
    expect(messagesSince(messagesBefore)).toEqual([[3, 'crash test']]);
  });

  it('killed after its completion was answered, with a token that cannot read files: "may have been delivered", never completed again', async () => {
    const scopedLog: string[] = [];
    const scoped = await startReferenceService({
      dataDir: join(root, 'scoped-service'),
      log: (line) => scopedLog.push(line),
      config: {
        tokens: {
          [TOKEN]: { user: 'U0TEST', channels: CHANNELS, scopes: ['files:write'] },
        },
      },
    });
    try {
      const file = await makeFile(join(root, 'files'), 'scoped.bin', 16 * 1024);
      const dataDir = join(root, 'scoped');
      await runDriver(
        {
          dataDir,
          baseUrl: scoped.url,
          channels: CHANNELS,
          paths: [file.path],
          killAt: 'after-step-3',
        },
        'scoped',
      );
      expect(sharedCounts(scoped.uploads(), [file])).toEqual([1]);
      const logFrom = scopedLog.length;
      const items = await resumeWithCli(dataDir);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        name: 'scoped.bin',
        state: 'unknown',
        error: { class: 'unknown-outcome', code: 'interrupted_completing' },
      });
      expect(items[0]!.error?.message).toMatch(/files:read/);
      expect(scopedLog.slice(logFrom).filter((l) => l.startsWith('POST '))).toEqual([
        'POST /api/files.info',
      ]);
      expect(sharedCounts(scoped.uploads(), [file])).toEqual([1]);
    } finally {
      await scoped.close();
    }
  });
});

// Between the journal's "completing" mark and the completion's first byte on the socket, a crash
// leaves a share "may have been delivered" even when the service never got its completion: the
// mark forbids sending it again. That window is kept to the mark's own write and fsync. Here the
// driver is killed at the first journal write after the mark's fsync: whatever it still did
// between its mark and its request is cut there. The completion went out with the mark's fsync,
// so the service shared the files and the CLI finds them delivered.
describe('the completion window', () => {
  it('killed at the first journal write after the "completing" mark was fsynced: the completion had already gone, so the CLI finds the share delivered, posted once, not "may have been delivered"', async () => {
    const { files, dataDir, messagesBefore } = await groupKilledAt(
      'completion-window',
      'after-completing-mark',
      { prefix: 'm', bytes: 16 * 1024, folder: 'window-files' },
    );

    const run = await runCli(['queue', '--run', '--json'], {
      env: { TRAYSHARE_DATA_DIR: dataDir, TRAYSHARE_TOKEN: TOKEN },
      // Long enough for the CLI's whole share check (30 s) when the share is not found.
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const items = JSON.parse(run.stdout) as QueueItem[];
    expect(items.map((i) => [i.name, i.state, i.error?.code])).toEqual([
      ['m1.bin', 'delivered', undefined],
      ['m2.bin', 'delivered', undefined],
      ['m3.bin', 'delivered', undefined],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 1, 1]);
    expect(messagesSince(messagesBefore).map(([count]) => count)).toEqual([3]);
    // On the old order (the mark, then "body complete" in a write and fsync of its own) the CLI
    // looked for shares for its whole window (30 s) before giving up.
  }, 90_000);
});
