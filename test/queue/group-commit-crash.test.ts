// The journal commits several records with one fsync (group commit: records appended while a
// write or fsync is under way go out together in the next). A crash placed inside a group,
// between its records or during its fsync with the machine going down too, must lose nothing
// and post nothing twice: no caller was told "journaled" before the group's fsync returned, so
// what a group carried had not happened yet (its last body bytes wait for "body complete", its
// outcome is announced only once journaled). group-commit-driver.ts places the crash; then a
// fresh process opens the same folder and finishes. The queue and the engine over real HTTP.
// The same driver also cuts power while History holds lines it has not synced: a History line
// has no fsync of its own, the outcome's journal record (fsynced, with the item's "history
// pending" mark) keeps it, and the mark is cleared only once the line is on disk
// (main/core/queue/history-hand-off.ts). If a mark were cleared before its line was on disk,
// the journal fsync would keep the cleared mark and History would miss that file for good.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/core/history/history-store';
import type { QueueItem } from '../../main/core/model';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { expectNoneLost } from './after-crash';
import { type DriverExit, driverProcesses } from './driver-process';
import { byPath, makeFiles, postedCounts, type TestFile } from './helpers';

const drivers = driverProcesses(
  fileURLToPath(new URL('./group-commit-driver.ts', import.meta.url)),
);
const FILES = 24;

let root: string;
let service: ReferenceService;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-group-commit-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  drivers.killAll();
  await service.close();
  await rm(root, { recursive: true, force: true });
});

const runDriver = (config: object, name: string) => drivers.run(root, config, name);

type Crash = 'between-records' | 'during-fsync' | 'history-unsynced';

/**
 * Runs the driver until it cuts itself where `crash` says (`checkCut` checks the cut was made
 * as meant), then a fresh process on the same folder finishes: every file ends delivered once,
 * or may-have-been-delivered because its whole body was sent (never failed), none posted twice,
 * each in History.
 */
async function crashThenRestart(
  crash: Crash,
  name: string,
  checkCut: (first: DriverExit, files: TestFile[]) => void,
) {
  const files = await makeFiles(join(root, name), FILES, 16 * 1024);
  const dataDir = join(root, `${name}-data`);
  const config = { dataDir, baseUrl: service.url, channels: ['C0GENERAL'] };
  const first = await runDriver(
    { ...config, paths: files.map((f) => f.path), crash, group: 3 },
    `${name}-first`,
  );
  // Killed by its own hand: a run that finished means the cut was never reached.
  expect(first.signal, first.stderr).toBe('SIGKILL');
  checkCut(first, files);

  const second = await runDriver(config, `${name}-second`);
  expect(second.code, second.stderr).toBe(0);
  const items = byPath(JSON.parse(second.stdout) as QueueItem[], files);
  const counts = postedCounts(service.uploads(), files);
  expect(items).toHaveLength(FILES);
  expectNoneLost(items, counts);
  const history = await openHistoryStore({ dir: dataDir });
  try {
    const entries = history.list();
    expect(entries).toHaveLength(FILES);
    expect(new Set(entries.map((e) => e.path))).toEqual(new Set(files.map((f) => f.path)));
    return { dataDir, items, entries };
  } finally {
    await history.close();
  }
}

/** A cut inside a group: the driver had queued the files, and not every file had gone. */
function cutInsideGroup(first: DriverExit, files: TestFile[]): void {
  expect(first.stderr).toMatch(/queued/);
  const postedBeforeCrash = postedCounts(service.uploads(), files).reduce((a, b) => a + b, 0);
  expect(postedBeforeCrash).toBeLessThan(FILES);
}

describe('a crash inside a group commit of the journal', () => {
  it('killed after half of a group of records reached the file: every file ends delivered once or may-have-been-delivered, none failed, none posted twice, all in history', async () => {
    const { items } = await crashThenRestart('between-records', 'between', cutInsideGroup);
    expect(items.filter((i) => i.state === 'delivered').length).toBeGreaterThan(0);
  });

  it('power lost during a group fsync (the unsynced tail gone, a torn line left): the journal is repaired, and every file ends delivered once or may-have-been-delivered, none failed, none posted twice', async () => {
    const { dataDir } = await crashThenRestart('during-fsync', 'fsync', cutInsideGroup);
    // The torn line was found and the damaged journal kept aside, as the repair promises.
    expect((await readdir(dataDir)).some((f) => f.startsWith('queue.jsonl.damaged-'))).toBe(true);
  });
});

describe('power lost while History holds lines it has not synced', () => {
  it('History lines cut after a journal fsync: after a restart every file is in History, delivered once or may-have-been-delivered, none failed, none posted twice', async () => {
    const { items, entries } = await crashThenRestart('history-unsynced', 'history', (first) => {
      const lost = Number(/history lost (\d+) bytes/.exec(first.stderr)?.[1]);
      expect(lost, first.stderr).toBeGreaterThan(0);
    });
    // Files delivered before the cut stay delivered: their outcomes were on disk.
    expect(items.filter((i) => i.state === 'delivered').length).toBeGreaterThan(0);
    for (const item of items) {
      const entry = entries.find((e) => e.path === item.path);
      expect(entry?.outcome, item.name).toBe(item.state);
    }
  });
});
