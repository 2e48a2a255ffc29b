// The store's index of the items still to go and of each share's items, and the list change
// listeners are handed, kept as items change instead of found by walking the whole queue
// (queue-index.ts, shared-list.ts): each must say what a walk of the whole queue would say.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queuedItem } from '../../../test/queue/queued-item';
import { type Entry, ItemStore } from './item-store';
import { newMeta } from './journal';

let dir: string;
let store: ItemStore<Entry>;

// A store over `dir`: the clock stands at 5, no rate-limit pauses, compaction after 1000 records.
const newStore = () =>
  new ItemStore<Entry>(
    dir,
    () => 5,
    () => [],
    1000,
  );

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-index-'));
  store = newStore();
  await store.open();
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const entry = (id: string, shareId = 'S1'): Entry => ({
  item: queuedItem(id, { shareId }),
  meta: newMeta(),
});
const ids = (entries: Iterable<Entry>) => Array.from(entries, (e) => e.item.id);
/** What the index stands for: a walk of the whole queue. */
const walkOpen = () =>
  ids([...store.values()].filter((e) => ['queued', 'waiting', 'sending'].includes(e.item.state)));

describe("the queue's index", () => {
  it('lists the items still to go in queue order, a retried item back in its place', async () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => entry(id));
    await store.add([a!, b!, c!]);
    await store.add([d!]);
    await store.commit(a!, { state: 'delivered' }, undefined, false);
    await store.commit(c!, { state: 'failed' }, undefined, false);
    store.apply(b!, { state: 'sending' });
    expect(ids(store.openItems())).toEqual(['b', 'd']);
    expect(ids(store.sendingItems())).toEqual(['b']);
    expect(store.workspacesToStart()).toBe(1);
    // A retry brings the failed item back: before d, where it stands in the queue.
    await store.update(c!, { state: 'queued' }, undefined, false);
    expect(ids(store.openItems())).toEqual(['b', 'c', 'd']);
    expect(ids(store.openItems())).toEqual(walkOpen());
    await store.commit(b!, { state: 'delivered' }, undefined, false);
    await store.remove([a!, b!]);
    expect(ids(store.openItems())).toEqual(['c', 'd']);
    expect(ids(store.openItems())).toEqual(walkOpen());
    expect(ids(store.sendingItems())).toEqual([]);
    await store.commit(c!, { state: 'cancelled' }, undefined, false);
    await store.commit(d!, { state: 'cancelled' }, undefined, false);
    // No workspace has a file left to start: a scheduling pass reads nothing.
    expect(store.workspacesToStart()).toBe(0);
  });

  it("counts and lists each share's items while they are in the queue", async () => {
    const [a, b, c] = [entry('a', 'S1'), entry('b', 'S2'), entry('c', 'S1')];
    await store.add([a!, b!, c!]);
    expect(ids(store.shareItems('S1'))).toEqual(['a', 'c']);
    expect([store.shareSize('S1'), store.shareSize('S2'), store.shareSize('S3')]).toEqual([
      2, 1, 0,
    ]);
    // Finished items stay their share's until they leave the queue.
    await store.commit(a!, { state: 'delivered' }, undefined, false);
    expect(store.shareSize('S1')).toBe(2);
    await store.remove([a!]);
    expect(ids(store.shareItems('S1'))).toEqual(['c']);
  });

  it('reads the index back from the journal when the queue opens again', async () => {
    const [a, b] = [entry('a'), entry('b')];
    await store.add([a!, b!]);
    await store.commit(a!, { state: 'delivered' }, undefined, true);
    await store.close();
    store = newStore();
    await store.open();
    expect(ids(store.openItems())).toEqual(['b']);
    expect(store.shareSize('S1')).toBe(2);
  });
});

describe('the list change listeners are handed', () => {
  it('is every item as it is now, in queue order, a new frozen copy only for what changed', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => entry(id));
    await store.add([a!, b!]);
    const first = store.sharedItems();
    expect(first.map((i) => i.id)).toEqual(['a', 'b']);
    store.apply(b!, { state: 'sending' });
    store.progress(a!, 4);
    const second = store.sharedItems();
    expect(second).not.toBe(first);
    expect(second.map((i) => [i.id, i.state, i.sent])).toEqual([
      ['a', 'queued', 4],
      ['b', 'sending', 0],
    ]);
    // What was handed out before is kept as it was: copies, never the queue's own items.
    expect(first.map((i) => [i.state, i.sent])).toEqual([
      ['queued', 0],
      ['queued', 0],
    ]);
    expect(Object.isFrozen(second[0])).toBe(true);
    await store.add([c!]);
    store.apply(c!, { state: 'sending' });
    const third = store.sharedItems();
    expect(third.map((i) => [i.id, i.state])).toEqual([
      ['a', 'queued'],
      ['b', 'sending'],
      ['c', 'sending'],
    ]);
    // An item that did not change is the same copy from one event to the next.
    expect(third[1]).toBe(second[1]);
    await store.remove([a!]);
    expect(store.sharedItems().map((i) => i.id)).toEqual(['b', 'c']);
  });
});
