import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../model';
import {
  type JournalRecord,
  newMeta,
  recoverInterrupted,
  replayJournal,
  snapshotRecords,
} from './journal';

function item(id: string, extra: Partial<QueueItem> = {}): QueueItem {
  return {
    id,
    shareId: 'S1',
    workspaceId: 'W1',
    channels: ['C1'],
    comment: '',
    path: `/tmp/${id}.txt`,
    name: `${id}.txt`,
    size: 10,
    mtimeMs: 1,
    state: 'queued',
    sent: 0,
    attempts: 0,
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  };
}

const add = (i: QueueItem): JournalRecord => ({ t: 'add', item: i, meta: newMeta() });

describe('journal replay', () => {
  it('applies records in order; null removes a field; del removes the item', () => {
    const state = replayJournal([
      add(item('a')),
      add(item('b')),
      add(item('c')),
      { t: 'set', id: 'a', item: { state: 'waiting', retryAt: 50, attempts: 1 } },
      { t: 'set', id: 'a', item: { state: 'sending', retryAt: null, attempts: 2 } },
      { t: 'set', id: 'b', item: { state: 'delivered', file: { id: 'F1' } } },
      { t: 'del', id: 'c' },
      { t: 'pause', workspaceId: 'W1', until: 99 },
    ]);
    expect([...state.entries.keys()]).toEqual(['a', 'b']);
    expect(state.entries.get('a')!.item).toEqual(item('a', { state: 'sending', attempts: 2 }));
    expect(state.entries.get('b')!.item.file).toEqual({ id: 'F1' });
    expect(state.pauses.get('W1')).toBe(99);
    expect(state.skipped).toBe(0);
  });

  it('gives the same state when records after a snapshot are replayed again', () => {
    const log: JournalRecord[] = [
      add(item('a')),
      { t: 'set', id: 'a', item: { state: 'sending', attempts: 1 }, meta: { bodySent: false } },
      { t: 'set', id: 'a', meta: { bodySent: true } },
      { t: 'set', id: 'a', item: { state: 'delivered' }, meta: { finishes: 1 } },
    ];
    const direct = replayJournal(log);
    const snapshot = snapshotRecords(direct.entries.values(), direct.pauses);
    expect(replayJournal([...snapshot, ...log]).entries).toEqual(direct.entries);
  });

  it('skips records it cannot use', () => {
    const state = replayJournal([
      { t: 'add', item: { id: 'x' } },
      { t: 'set', id: 'nope', item: { state: 'sending' } },
      { t: 'mystery' },
      add(item('a')),
      { t: 'set', id: 'a', item: { state: 'exploded' } },
    ]);
    expect(state.entries.size).toBe(0);
    expect(state.skipped).toBe(4);
  });
});

describe('recovery after a crash', () => {
  it('re-queues unsent attempts, marks body-complete ones unknown, keeps the rest', () => {
    const state = replayJournal([
      add(item('unsent', { state: 'sending', attempts: 1, sent: 5 })),
      {
        t: 'add',
        item: item('maybe', { state: 'sending', attempts: 1 }),
        meta: { ...newMeta(), bodySent: true },
      },
      add(item('backoff', { state: 'waiting', retryAt: 500 })),
      add(
        item('token', {
          state: 'waiting',
          error: { class: 'credential', code: 'invalid_auth', message: 'm' },
        }),
      ),
      add(item('done', { state: 'delivered' })),
      { t: 'pause', workspaceId: 'W1', until: 100 },
      { t: 'pause', workspaceId: 'W2', until: 5000 },
    ]);
    const finished = recoverInterrupted(state, 1000);
    const states = Object.fromEntries([...state.entries].map(([id, e]) => [id, e.item.state]));
    expect(states).toEqual({
      unsent: 'queued',
      maybe: 'unknown',
      backoff: 'waiting',
      token: 'queued',
      done: 'delivered',
    });
    expect(state.entries.get('unsent')!.item.sent).toBe(0);
    expect(state.entries.get('maybe')!.item.error?.code).toBe('interrupted_after_body');
    expect(finished.map((e) => e.item.id)).toEqual(['maybe']);
    expect(finished[0]!.meta).toMatchObject({ finishes: 1, historyPending: true });
    expect([...state.pauses]).toEqual([['W2', 5000]]);
  });
});
