// The journal's promises at their edges (found by mutation testing, docs/mutation.md): which
// records replay, which are skipped and counted, how a repeated add keeps its place, and what a
// restart does with each kind of interrupted item. journal.test.ts has the main cases.
import { describe, expect, it } from 'vitest';
import { queuedItem } from '../../../test/queue/queued-item';
import { ACTIVE_STATES, FINISHED_STATES } from '../../portable/item-states';
import type { QueueItem } from '../model';
import {
  hasCheckpoint,
  type JournalRecord,
  newMeta,
  recoverInterrupted,
  replayJournal,
  snapshotRecords,
} from './journal';

const add = (i: QueueItem, meta: object = newMeta()): JournalRecord =>
  ({ t: 'add', item: i, meta }) as JournalRecord;

describe('replaying records', () => {
  it('skips an add whose item lacks any field the queue needs, or has one of the wrong kind', () => {
    const good = queuedItem('a') as unknown as Record<string, unknown>;
    const broken: unknown[] = [
      null,
      'a string',
      { ...good, id: 1 },
      { ...good, workspaceId: undefined },
      { ...good, path: 5 },
      { ...good, name: null },
      { ...good, channels: 'C1' },
      { ...good, size: '10' },
      { ...good, state: 7 },
      { ...good, state: 'exploded' },
    ];
    const state = replayJournal(broken.map((item) => ({ t: 'add', item, meta: newMeta() })));
    expect(state.entries.size).toBe(0);
    expect(state.skipped).toBe(broken.length);
    // Every state the queue has is accepted.
    const states = [...ACTIVE_STATES, ...FINISHED_STATES];
    const all = replayJournal(states.map((s) => add(queuedItem(s, { state: s }))));
    expect(all.skipped).toBe(0);
    expect([...all.entries.keys()]).toEqual(states);
  });

  it('a repeated add keeps the first place in the queue and takes the later contents', () => {
    const state = replayJournal([
      add(queuedItem('a')),
      add(queuedItem('b')),
      add(queuedItem('a', { comment: 'again' })),
    ]);
    expect([...state.entries.keys()]).toEqual(['a', 'b']);
    expect(state.entries.get('a')!.item.comment).toBe('again');
  });

  it('fills what an older add left out of the meta with the defaults, and keeps what it gave', () => {
    const state = replayJournal([add(queuedItem('a'), { finishes: 2 })]);
    expect(state.entries.get('a')!.meta).toEqual({ ...newMeta(), finishes: 2 });
    const bare = replayJournal([{ t: 'add', item: queuedItem('b') }]);
    expect(bare.entries.get('b')!.meta).toEqual(newMeta());
  });

  it('a set never changes the id, removes a field given null, and applies meta', () => {
    const state = replayJournal([
      add(queuedItem('a', { retryAt: 5 })),
      {
        t: 'set',
        id: 'a',
        item: { id: 'other', retryAt: null, attempts: 3 },
        meta: { bodySent: true },
      },
    ]);
    const entry = state.entries.get('a')!;
    expect(entry.item.id).toBe('a');
    expect('retryAt' in entry.item).toBe(false);
    expect(entry.item.attempts).toBe(3);
    expect(entry.meta.bodySent).toBe(true);
    expect(state.skipped).toBe(0);
  });

  it('a field set to undefined is removed, as null is', () => {
    const state = replayJournal([
      add(queuedItem('a', { retryAt: 5 })),
      { t: 'set', id: 'a', item: { retryAt: undefined } },
    ]);
    expect('retryAt' in state.entries.get('a')!.item).toBe(false);
  });

  it('only an add record adds an item, only a pause record pauses, whatever else they carry', () => {
    const state = replayJournal([
      { t: 'set', id: 'a', item: queuedItem('a') },
      { t: 'del', id: 'b', item: queuedItem('b'), meta: newMeta() },
      { t: 'later', workspaceId: 'W1', until: 5 },
    ]);
    expect(state.entries.size).toBe(0);
    expect(state.pauses.size).toBe(0);
    expect(state.skipped).toBe(2);
  });

  it('a set whose item or meta is not an object changes nothing', () => {
    const state = replayJournal([
      add(queuedItem('a')),
      { t: 'set', id: 'a', item: 'sending', meta: 'bodySent' },
    ]);
    expect(state.entries.get('a')).toEqual({ item: queuedItem('a'), meta: newMeta() });
    expect(state.skipped).toBe(0);
  });

  it('skips a set, del or pause that is not whole; a del of an item already gone is no harm', () => {
    const state = replayJournal([
      add(queuedItem('a')),
      { t: 'set', item: { state: 'failed' } },
      { t: 'del' },
      { t: 'del', id: 'gone' },
      { t: 'pause', workspaceId: 'W1' },
      { t: 'pause', until: 5 },
      { t: 'pause', workspaceId: 'W1', until: '5' },
    ]);
    expect([...state.entries.keys()]).toEqual(['a']);
    expect(state.pauses.size).toBe(0);
    expect(state.skipped).toBe(5);
  });

  it('a snapshot is an add per item in queue order, then a pause per workspace', () => {
    const state = replayJournal([
      add(queuedItem('b')),
      add(queuedItem('a')),
      { t: 'pause', workspaceId: 'W1', until: 9 },
    ]);
    expect(snapshotRecords(state.entries.values(), state.pauses)).toEqual([
      { t: 'add', item: queuedItem('b'), meta: newMeta() },
      { t: 'add', item: queuedItem('a'), meta: newMeta() },
      { t: 'pause', workspaceId: 'W1', until: 9 },
    ]);
  });
});

describe('a checkpoint', () => {
  it('is any value but null or absent', () => {
    expect(hasCheckpoint(newMeta())).toBe(false);
    expect(hasCheckpoint({ ...newMeta(), resume: null })).toBe(false);
    expect(hasCheckpoint({ ...newMeta(), resume: 0 })).toBe(true);
    expect(hasCheckpoint({ ...newMeta(), resume: { fileId: 'F1' } })).toBe(true);
  });
});

describe('a restart', () => {
  it('a file cut off after its whole body: unknown now, once, with no retry time, to History', () => {
    const state = replayJournal([
      add(queuedItem('maybe', { state: 'sending', retryAt: 7, updatedAt: 1 }), {
        ...newMeta(),
        bodySent: true,
        finishes: 1,
      }),
    ]);
    const finished = recoverInterrupted(state, 1000);
    const { item, meta } = state.entries.get('maybe')!;
    expect(item).toMatchObject({ state: 'unknown', updatedAt: 1000 });
    expect(item.error).toEqual({
      class: 'unknown-outcome',
      code: 'interrupted_after_body',
      message:
        'Trayshare stopped after the whole file was sent and before the service answered, so it may have been delivered. Check the channels; retry only if it is missing.',
    });
    expect('retryAt' in item).toBe(false);
    expect(meta).toMatchObject({ finishes: 2, historyPending: true });
    expect(finished).toEqual([{ item, meta }]);
  });

  it('a file cut off mid-body goes again from the start: queued, nothing sent, not finished', () => {
    const state = replayJournal([
      add(queuedItem('cut', { state: 'sending', sent: 500, updatedAt: 1 })),
    ]);
    expect(recoverInterrupted(state, 1000)).toEqual([]);
    const { item, meta } = state.entries.get('cut')!;
    expect(item).toMatchObject({ state: 'queued', sent: 0, updatedAt: 1000 });
    expect(meta).toEqual(newMeta());
  });

  it('an attempt that left a checkpoint goes again from it, even after its whole body went', () => {
    const resume = { fileId: 'F1', step: 'complete' };
    const state = replayJournal([
      add(queuedItem('ext', { state: 'sending', sent: 10, updatedAt: 1 }), {
        ...newMeta(),
        bodySent: true,
        resume,
      }),
    ]);
    expect(recoverInterrupted(state, 1000)).toEqual([]);
    const { item, meta } = state.entries.get('ext')!;
    expect(item).toMatchObject({ state: 'queued', sent: 0, updatedAt: 1000 });
    expect(meta).toMatchObject({ bodySent: false, resume, finishes: 0, historyPending: false });
  });

  it('an item waiting for a new token is queued again, its error cleared; a looking-only process keeps it waiting', () => {
    const waiting = () =>
      replayJournal([
        add(
          queuedItem('token', {
            state: 'waiting',
            updatedAt: 1,
            error: { class: 'credential', code: 'invalid_auth', message: 'm' },
          }),
        ),
      ]);
    const state = waiting();
    recoverInterrupted(state, 1000);
    const item = state.entries.get('token')!.item;
    expect(item).toMatchObject({ state: 'queued', updatedAt: 1000 });
    expect('error' in item).toBe(false);

    const looking = waiting();
    recoverInterrupted(looking, 1000, { keepTokenWaits: true });
    expect(looking.entries.get('token')!.item).toMatchObject({
      state: 'waiting',
      updatedAt: 1,
      error: { code: 'invalid_auth' },
    });
  });

  it('a finished item keeps its outcome though its last attempt had sent its whole body', () => {
    const items = [
      queuedItem('done', { state: 'delivered' }),
      queuedItem('failed', { state: 'failed' }),
      queuedItem('waiting', { state: 'waiting', retryAt: 5000 }),
    ];
    const state = replayJournal(items.map((i) => add(i, { ...newMeta(), bodySent: true })));
    expect(recoverInterrupted(state, 1000)).toEqual([]);
    expect([...state.entries.values()].map((e) => e.item)).toEqual(items);
  });

  it('a backoff wait and finished items are left as they were', () => {
    const items = [
      queuedItem('backoff', { state: 'waiting', retryAt: 5000 }),
      queuedItem('queued'),
      queuedItem('done', { state: 'delivered' }),
      queuedItem('failed', { state: 'failed' }),
    ];
    const state = replayJournal(items.map((i) => add(i)));
    expect(recoverInterrupted(state, 1000)).toEqual([]);
    expect([...state.entries.values()].map((e) => e.item)).toEqual(items);
  });

  it('drops a rate-limit pause that has ended, including one ending right now', () => {
    const state = replayJournal([
      { t: 'pause', workspaceId: 'ended', until: 999 },
      { t: 'pause', workspaceId: 'now', until: 1000 },
      { t: 'pause', workspaceId: 'later', until: 1001 },
    ]);
    recoverInterrupted(state, 1000);
    expect([...state.pauses]).toEqual([['later', 1001]]);
  });
});
