// A crash in the middle of a journal write leaves half a line at its end. Reopening drops it,
// keeps everything before it, and carries on: nothing lost, nothing sent twice.
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonl } from '../../main/core/history/jsonl-file';
import { JOURNAL_FILE } from '../../main/core/queue/journal';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { allFinished } from './finished';
import { byPath, makeFiles, openRealQueue, postedCounts } from './helpers';

let root: string;
let service: ReferenceService;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-torn-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  await service.close();
  await rm(root, { recursive: true, force: true });
});

describe('torn journal', () => {
  it('drops a half-written last line on reopen and finishes the queue', async () => {
    const dataDir = join(root, 'data');
    const sent = await makeFiles(join(root, 'sent'), 3);
    const pending = await makeFiles(join(root, 'pending'), 3);

    const first = await openRealQueue({ dir: dataDir, baseUrl: service.url });
    await first.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C0GENERAL'],
      comment: '',
      paths: sent.map((f) => f.path),
    });
    await allFinished(first.queue);
    first.queue.setPaused(true);
    const { items } = await first.queue.enqueue({
      workspaceId: 'W1',
      channels: ['C0DESIGN'],
      comment: 'second batch',
      paths: pending.map((f) => f.path),
    });
    await first.close();

    // The crash: half of a record for the first pending item, without its newline.
    const record = JSON.stringify({
      t: 'set',
      id: items[0]!.id,
      item: { state: 'sending', attempts: 1 },
      meta: { bodySent: true },
    });
    await appendFile(join(dataDir, JOURNAL_FILE), record.slice(0, Math.floor(record.length / 2)));

    const second = await openRealQueue({ dir: dataDir, baseUrl: service.url });
    try {
      await allFinished(second.queue);
      const list = second.queue.list();
      expect(byPath(list, sent).map((i) => i.state)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(byPath(list, pending).map((i) => [i.state, i.attempts])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
        ['delivered', 1],
      ]);
      expect(postedCounts(service.uploads(), [...sent, ...pending])).toEqual([1, 1, 1, 1, 1, 1]);
      const journal = parseJsonl(await readFile(join(dataDir, JOURNAL_FILE), 'utf8'));
      expect({ torn: journal.torn, bad: journal.bad }).toEqual({ torn: false, bad: 0 });
      expect(second.history.list()).toHaveLength(6);
    } finally {
      await second.close();
    }
  });
});
