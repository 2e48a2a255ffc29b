// A real crash: a child process working the queue is SIGKILLed mid-way, then started again on
// the same data folder. Every file must end delivered exactly once, or "may have been delivered"
// because its whole body was sent before the kill: none lost, none posted twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/core/history/history-store';
import type { QueueItem } from '../../main/core/model';
import { JOURNAL_FILE, replayJournal } from '../../main/core/queue/journal';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { expectNoneLost } from './after-crash';
import { byPath, makeFiles, postedCounts, TEST_TOKEN } from './helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const driver = fileURLToPath(new URL('./crash-driver.ts', import.meta.url));

let root: string;
let service: ReferenceService;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-crash-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service.close();
  await rm(root, { recursive: true, force: true });
});

interface Driver {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout: () => string;
  stderr: () => string;
}

// node --import tsx rather than npx: the driver is then this test's own child, so SIGKILL hits
// the process that holds the queue (npx and tsx's launcher would leave it running).
function startDriver(config: object, name: string): Promise<Driver> {
  const configPath = join(root, `${name}.json`);
  return writeFile(configPath, JSON.stringify(config)).then(() => {
    const child = spawn(process.execPath, ['--import', 'tsx', driver, configPath], {
      cwd: repo,
      env: { ...process.env, TRAYSHARE_TEST_TOKEN: TEST_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve) => {
        child.once('exit', (code, signal) => {
          children.delete(child);
          resolve({ code, signal });
        });
      },
    );
    return { child, exited, stdout: () => out, stderr: () => err };
  });
}

/** The journal as a restart would replay it: some file mid-body, some with its whole body sent. */
async function bothCuts(dataDir: string): Promise<boolean> {
  const text = await readFile(join(dataDir, JOURNAL_FILE), 'utf8').catch(() => '');
  const records = text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
  const sending = [...replayJournal(records).entries.values()].filter(
    (e) => e.item.state === 'sending',
  );
  return sending.some((e) => e.meta.bodySent) && sending.some((e) => !e.meta.bodySent);
}

describe('queue crash and restart', () => {
  it('SIGKILL mid-way, restart: every file delivered once, or may-have-been-delivered because its whole body was sent; none failed, none twice', async () => {
    const files = await makeFiles(join(root, 'files'), 20, 64 * 1024);
    const dataDir = join(root, 'data');
    const posted = () => postedCounts(service.uploads(), files).reduce((a, b) => a + b, 0);
    // The first upload's answer is held past the kill, so the driver cannot finish first however
    // fast or slow the machine runs it (a fixed slowness alone raced the driver under load).
    // The slow answers after it keep other recorded uploads waiting when the kill comes.
    service.injectFault({ fault: { kind: 'slow', delayMs: 25_000 }, times: 1 });
    service.injectFault({ fault: { kind: 'slow', delayMs: 400 }, times: 19 });

    const first = await startDriver(
      {
        dataDir,
        baseUrl: service.url,
        channels: ['C0GENERAL'],
        paths: files.map((f) => f.path),
        // Long enough that a file is mid-body for a while beside the one whose answer is held:
        // the kill below waits for both at once.
        slowBodyMs: 250,
      },
      'first',
    );
    let early: { code: number | null } | undefined;
    void first.exited.then((e) => {
      early = e;
    });
    // The kill waits for both cuts the restart must handle: a file whose whole body went and
    // whose answer had not come, and a file cut off mid-body, as the journal shows them.
    while (posted() < 4 || !(await bothCuts(dataDir))) {
      if (early) throw new Error(`the driver ended before the kill: ${first.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const postedBeforeKill = posted();
    expect(postedBeforeKill).toBeLessThan(20);
    service.clearFaults();

    const second = await startDriver(
      { dataDir, baseUrl: service.url, channels: ['C0GENERAL'] },
      'second',
    );
    const { code } = await second.exited;
    expect(code, second.stderr()).toBe(0);
    const items = byPath(JSON.parse(second.stdout()) as QueueItem[], files);
    const counts = postedCounts(service.uploads(), files);

    expect(items).toHaveLength(20);
    expectNoneLost(items, counts);
    // Those waiting for their slow answer at the kill may have been delivered: unknown, not re-sent.
    const unknown = items.filter((i) => i.state === 'unknown');
    expect(unknown.length).toBeGreaterThanOrEqual(1);
    for (const item of unknown) expect(item.error?.code).toBe('interrupted_after_body');

    const history = await openHistoryStore({ dir: dataDir });
    try {
      const entries = history.list();
      expect(entries).toHaveLength(20);
      expect(new Set(entries.map((e) => e.path))).toEqual(new Set(files.map((f) => f.path)));
    } finally {
      await history.close();
    }
  });
});
