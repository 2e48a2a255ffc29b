import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../model';
import { HISTORY_FILE, type HistoryStore, openHistoryStore } from './history-store';
import { parseJsonl } from './jsonl-file';

let dir: string;
const opened: HistoryStore[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-history-'));
});

afterEach(async () => {
  for (const h of opened.splice(0)) await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function openStore(maxEntries?: number): Promise<HistoryStore> {
  const store = await openHistoryStore({ dir, ...(maxEntries ? { maxEntries } : {}) });
  opened.push(store);
  return store;
}

async function reopen(store: HistoryStore, maxEntries?: number): Promise<HistoryStore> {
  await store.close();
  opened.splice(opened.indexOf(store), 1);
  return openStore(maxEntries);
}

function entry(n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: `item-${n}.1`,
    at: 1_700_000_000_000 + n,
    workspaceId: 'W1',
    workspaceName: 'Acme',
    channels: ['C0GENERAL'],
    comment: '',
    path: `/home/ann/file-${n}.txt`,
    name: `file-${n}.txt`,
    size: 100 + n,
    outcome: 'delivered',
    permalink: `https://acme.test/files/F${n}`,
    fileId: `F${n}`,
    ...extra,
  };
}

async function fileLines(): Promise<unknown[]> {
  const parsed = parseJsonl(await readFile(join(dir, HISTORY_FILE), 'utf8'));
  expect(parsed.torn).toBe(false);
  return parsed.values;
}

describe('history store', () => {
  it('lists entries newest first and keeps them across a reopen', async () => {
    let store = await openStore();
    for (let n = 1; n <= 3; n++) await store.append(entry(n));
    expect(store.list().map((e) => e.name)).toEqual(['file-3.txt', 'file-2.txt', 'file-1.txt']);
    expect(store.list({ limit: 2 }).map((e) => e.name)).toEqual(['file-3.txt', 'file-2.txt']);
    store = await reopen(store);
    expect(store.list()).toEqual([entry(3), entry(2), entry(1)]);
  });

  it('searches file name, channels, comment and error code', async () => {
    const store = await openStore();
    await store.append(entry(1, { name: 'Quarterly Report.pdf' }));
    await store.append(entry(2, { channels: ['C0DESIGN', 'C0RANDOM'] }));
    await store.append(entry(3, { comment: 'Mockups for the launch' }));
    await store.append(
      entry(4, {
        outcome: 'failed',
        error: { class: 'target', code: 'channel_not_found', message: 'No such channel' },
      }),
    );
    const names = (search: string) => store.list({ search }).map((e) => e.id);
    expect(names('quarterly')).toEqual(['item-1.1']);
    expect(names('c0design')).toEqual(['item-2.1']);
    expect(names('LAUNCH mockups')).toEqual(['item-3.1']);
    expect(names('channel_not_found')).toEqual(['item-4.1']);
    expect(names('nothing-like-this')).toEqual([]);
    expect(names('  ')).toHaveLength(4);
  });

  it('finds entries by the name of their workspace', async () => {
    const store = await openStore();
    await store.append(entry(1));
    await store.append(entry(2, { workspaceId: 'W2', workspaceName: 'Globex' }));
    expect(store.list({ search: 'globex' }).map((e) => e.id)).toEqual(['item-2.1']);
    expect(store.list({ search: 'acme' }).map((e) => e.id)).toEqual(['item-1.1']);
  });

  it('ignores an entry it already holds (a replay after a crash)', async () => {
    const store = await openStore();
    await store.append(entry(1));
    await store.append(entry(1, { outcome: 'failed' }));
    expect(store.list()).toEqual([entry(1)]);
    expect(await fileLines()).toHaveLength(1);
  });

  it('keeps the newest maxEntries and compacts the file', async () => {
    let store = await openStore(10);
    for (let n = 1; n <= 100; n++) await store.append(entry(n));
    expect(store.list().map((e) => e.fileId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `F${100 - i}`),
    );
    // Bounded on disk: at most the kept entries plus the compaction slack (50 lines).
    expect((await fileLines()).length).toBeLessThanOrEqual(60);
    store = await reopen(store, 10);
    expect(store.list()).toHaveLength(10);
    expect(store.list()[0]).toEqual(entry(100));
    expect(await fileLines()).toHaveLength(10);
  });

  it('recovers from a torn last write', async () => {
    let store = await openStore();
    await store.append(entry(1));
    await store.append(entry(2));
    await store.close();
    opened.splice(0);
    await writeFile(join(dir, HISTORY_FILE), JSON.stringify(entry(3)).slice(0, 40), { flag: 'a' });
    store = await openStore();
    expect(store.list().map((e) => e.id)).toEqual(['item-2.1', 'item-1.1']);
    await store.append(entry(4));
    expect((await fileLines()).map((e) => (e as HistoryEntry).id)).toEqual([
      'item-1.1',
      'item-2.1',
      'item-4.1',
    ]);
  });

  it('skips lines that are not entries instead of failing', async () => {
    await writeFile(
      join(dir, HISTORY_FILE),
      `${JSON.stringify(entry(1))}\nnot json\n{"id":5}\n${JSON.stringify(entry(2))}\n`,
    );
    const store = await openStore();
    expect(store.list().map((e) => e.id)).toEqual(['item-2.1', 'item-1.1']);
    expect(await fileLines()).toHaveLength(2);
  });

  it('names the workspace of an entry that comes without a name', async () => {
    const store = await openHistoryStore({
      dir,
      workspaceName: (id) => (id === 'W1' ? 'Acme design' : undefined),
    });
    opened.push(store);
    await store.append(entry(1, { workspaceName: '' }));
    await store.append(entry(2, { workspaceName: '', workspaceId: 'W-gone' }));
    await store.append(entry(3, { workspaceName: 'Kept' }));
    expect(store.list().map((e) => e.workspaceName)).toEqual(['Kept', 'W-gone', 'Acme design']);
  });

  it('tells listeners about new entries', async () => {
    const store = await openStore();
    let calls = 0;
    const off = store.onChange(() => calls++);
    await store.append(entry(1));
    off();
    await store.append(entry(2));
    expect(calls).toBe(1);
  });
});

describe('one row per item', () => {
  it('a retry of an item replaces its row, also after reopening', async () => {
    const store = await openStore();
    await store.append(entry(1, { outcome: 'failed' }));
    await store.append(entry(2));
    await store.append(entry(1, { id: 'item-1.2', outcome: 'delivered' }));
    const rows = () => store.list().map((h) => [h.id, h.outcome]);
    expect(rows()).toEqual([
      ['item-1.2', 'delivered'],
      ['item-2.1', 'delivered'],
    ]);
    const again = await reopen(store);
    expect(again.list().map((h) => [h.id, h.outcome])).toEqual([
      ['item-1.2', 'delivered'],
      ['item-2.1', 'delivered'],
    ]);
  });
});
