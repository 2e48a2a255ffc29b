import { describe, expect, it } from 'vitest';
import { queuedItem } from '../../../test/queue/queued-item';
import type { QueueItem } from '../model';
import {
  type JournalRecord,
  newMeta,
  recoverInterrupted,
  replayJournal,
  snapshotRecords,
} from './journal';

const add = (i: QueueItem): JournalRecord => ({ t: 'add', item: i, meta: newMeta() });

describe('journal replay', () => {
  it('applies records in order; null removes a field; del removes the item', () => {
    const state = replayJournal([
      add(queuedItem('a')),
      add(queuedItem('b')),
      add(queuedItem('c')),
      { t: 'set', id: 'a', item: { state: 'waiting', retryAt: 50, attempts: 1 } },
      { t: 'set', id: 'a', item: { state: 'sending', retryAt: null, attempts: 2 } },
      { t: 'set', id: 'b', item: { state: 'delivered', file: { id: 'F1' } } },
      { t: 'del', id: 'c' },
      { t: 'pause', workspaceId: 'W1', until: 99 },
    ]);
    expect([...state.entries.keys()]).toEqual(['a', 'b']);
    expect(state.entries.get('a')!.item).toEqual(
      queuedItem('a', { state: 'sending', attempts: 2 }),
    );
    expect(state.entries.get('b')!.item.file).toEqual({ id: 'F1' });
    expect(state.pauses.get('W1')).toBe(99);
    expect(state.skipped).toBe(0);
  });

  it('gives the same state when records after a snapshot are replayed again', () => {
    const log: JournalRecord[] = [
      add(queuedItem('a')),
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
      add(queuedItem('a')),
      { t: 'set', id: 'a', item: { state: 'exploded' } },
    ]);
    expect(state.entries.size).toBe(0);
    expect(state.skipped).toBe(4);
  });
});

describe('recovery after a crash', () => {
  it('re-queues unsent attempts, marks body-complete ones unknown, keeps the rest', () => {
    const state = replayJournal([
      add(queuedItem('unsent', { state: 'sending', attempts: 1, sent: 5 })),
      {
        t: 'add',
        item: queuedItem('maybe', { state: 'sending', attempts: 1 }),
        meta: { ...newMeta(), bodySent: true },
      },
      add(queuedItem('backoff', { state: 'waiting', retryAt: 500 })),
      add(
        queuedItem('token', {
          state: 'waiting',
          error: { class: 'credential', code: 'invalid_auth', message: 'm' },
        }),
      ),
      add(queuedItem('done', { state: 'delivered' })),
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
