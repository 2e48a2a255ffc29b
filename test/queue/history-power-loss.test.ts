// A History line has no fsync of its own: the outcome's journal record (fsynced, with the item's
// "history pending" mark) is what keeps it, and the mark is cleared only once the line is on
// disk (main/core/queue/history-hand-off.ts). Here the machine loses power right after a journal
// fsync while History holds lines it has not synced: those lines are gone, the journal keeps
// everything it synced. After a restart, every file must still be in History, delivered once,
// unknown or failed with its reason, none posted twice. If a mark were cleared before its line
// was on disk, the journal fsync would have kept the cleared mark, and History would miss that
// file for good. The queue and the engine over real HTTP (group-commit-driver.ts places the cut).
import { mkdtemp, rm } from 'node:fs/promises';
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
  root = await mkdtemp(join(tmpdir(), 'trayshare-history-power-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  drivers.killAll();
  await service.close();
  await rm(root, { recursive: true, force: true });
});

const runDriver = (config: object, name: string) => drivers.run(root, config, name);

describe('power lost while History holds lines it has not synced', () => {
  it('History lines cut after a journal fsync: after a restart every file is in History, delivered once, unknown or failed, none posted twice', async () => {
    const files = await makeFiles(join(root, 'files'), FILES, 16 * 1024);
    const dataDir = join(root, 'data');
    const config = { dataDir, baseUrl: service.url, channels: ['C0GENERAL'] };
    const first = await runDriver(
      { ...config, paths: files.map((f) => f.path), crash: 'history-unsynced', group: 3 },
      'first',
    );
    // Cut by its own hand: a run that finished means History never held an unsynced line
    // at a journal fsync, and nothing was tested.
    expect(first.signal, first.stderr).toBe('SIGKILL');
    const lost = Number(/history lost (\d+) bytes/.exec(first.stderr)?.[1]);
    expect(lost, first.stderr).toBeGreaterThan(0);

    const second = await runDriver(config, 'second');
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
    // Files delivered before the cut stay delivered: their outcomes were on disk.
    expect(items.filter((i) => i.state === 'delivered').length).toBeGreaterThan(0);

    const history = await openHistoryStore({ dir: dataDir });
    try {
      const entries = history.list();
      expect(entries).toHaveLength(FILES);
      expect(new Set(entries.map((e) => e.path))).toEqual(new Set(files.map((f) => f.path)));
      for (const item of items) {
        const entry = entries.find((e) => e.path === item.path);
        expect(entry?.outcome, item.name).toBe(item.state);
      }
    } finally {
      await history.close();
    }
  });
});
