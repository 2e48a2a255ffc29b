// The journal commits several records with one fsync (group commit: records appended while a
// write or fsync is under way go out together in the next). A crash placed inside a group,
// between its records or during its fsync with the machine going down too, must lose nothing
// and post nothing twice: no caller was told "journaled" before the group's fsync returned, so
// what a group carried had not happened yet (its last body bytes wait for "body complete", its
// outcome is announced only once journaled). group-commit-driver.ts places the crash; then a
// fresh process opens the same folder and finishes. The queue and the engine over real HTTP.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/core/history/history-store';
import type { QueueItem } from '../../main/core/model';
import { type ReferenceService, startReferenceService } from '../service/server';
import { driverProcesses } from './driver-process';
import { byPath, makeFiles, postedCounts } from './helpers';

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

async function crashThenRestart(crash: 'between-records' | 'during-fsync', name: string) {
  const files = await makeFiles(join(root, name), FILES, 16 * 1024);
  const dataDir = join(root, `${name}-data`);
  const config = { dataDir, baseUrl: service.url, channels: ['C0GENERAL'] };
  const first = await runDriver(
    { ...config, paths: files.map((f) => f.path), crash, group: 3 },
    `${name}-first`,
  );
  // Killed by its own hand inside a group: a run that finished means no group ever formed.
  expect(first.signal, first.stderr).toBe('SIGKILL');
  expect(first.stderr).toMatch(/queued/);
  const postedBeforeCrash = postedCounts(service.uploads(), files).reduce((a, b) => a + b, 0);
  expect(postedBeforeCrash).toBeLessThan(FILES);

  const second = await runDriver(config, `${name}-second`);
  expect(second.code, second.stderr).toBe(0);
  const items = byPath(JSON.parse(second.stdout) as QueueItem[], files);
  const counts = postedCounts(service.uploads(), files);
  expect(items).toHaveLength(FILES);
  items.forEach((item, i) => {
    const what = `${item.name}: ${item.state} (${item.error?.code ?? 'no error'}), posted ${counts[i]}x`;
    expect(['delivered', 'unknown', 'failed'], what).toContain(item.state);
    if (item.state === 'delivered') expect(counts[i], what).toBe(1);
    else expect(item.error?.message, what).toBeTruthy();
    expect(counts[i], what).toBeLessThanOrEqual(1);
  });
  const history = await openHistoryStore({ dir: dataDir });
  try {
    const entries = history.list();
    expect(entries).toHaveLength(FILES);
    expect(new Set(entries.map((e) => e.path))).toEqual(new Set(files.map((f) => f.path)));
  } finally {
    await history.close();
  }
  return { dataDir, items };
}

describe('a crash inside a group commit of the journal', () => {
  it('killed after half of a group of records reached the file: every file ends delivered once, unknown or failed, none posted twice, all in history', async () => {
    const { items } = await crashThenRestart('between-records', 'between');
    expect(items.filter((i) => i.state === 'delivered').length).toBeGreaterThan(0);
  });

  it('power lost during a group fsync (the unsynced tail gone, a torn line left): the journal is repaired, and every file ends delivered once, unknown or failed, none posted twice', async () => {
    const { dataDir } = await crashThenRestart('during-fsync', 'fsync');
    // The torn line was found and the damaged journal kept aside, as the repair promises.
    expect((await readdir(dataDir)).some((f) => f.startsWith('queue.jsonl.damaged-'))).toBe(true);
  });
});
