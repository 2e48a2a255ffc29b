// What the queue looks up at every scheduling pass and every file's start or end, kept as the
// items change rather than found by walking the whole queue each time: the items not finished
// yet (queued, waiting, sending) in queue order, the items sending, how many workspaces have
// items waiting to start, and each share's items. A share of 500 small files made ~1000
// scheduling passes, each walking all 500 items, finished ones included (bench/small-files.ts).
import { isActiveState } from '../../portable/item-states';
import type { ItemState } from '../model';
import type { JournalEntry } from './journal';

const toStart = (state: ItemState) => state === 'queued' || state === 'waiting';

export class QueueIndex<E extends JournalEntry> {
  private readonly open = new Set<E>();
  /** An item came back (a retry) and its place in `open` is not its queue place: rebuilt on read. */
  private reordered = false;
  private readonly sendingNow = new Set<E>();
  /** Queued or waiting items, by workspace. */
  private readonly toStart = new Map<string, number>();
  private readonly shares = new Map<string, Set<E>>();

  /** `all` is the whole queue in queue order, read only to put an item that came back in place. */
  constructor(private readonly all: () => Iterable<E>) {}

  /** Items just added at the end of the queue (or read back in queue order). */
  added(entries: Iterable<E>): void {
    for (const entry of entries) {
      this.counted(entry, entry.item.state, 1);
      if (isActiveState(entry.item.state)) this.open.add(entry);
      const shareId = entry.item.shareId;
      let share = this.shares.get(shareId);
      if (!share) {
        share = new Set();
        this.shares.set(shareId, share);
      }
      share.add(entry);
    }
  }

  removed(entries: Iterable<E>): void {
    for (const entry of entries) {
      this.counted(entry, entry.item.state, -1);
      this.open.delete(entry);
      const share = this.shares.get(entry.item.shareId);
      share?.delete(entry);
      if (share?.size === 0) this.shares.delete(entry.item.shareId);
    }
  }

  /** The item's state may have changed (from `before`). */
  stateChanged(entry: E, before: ItemState): void {
    const now = entry.item.state;
    if (now === before) return;
    this.counted(entry, before, -1);
    this.counted(entry, now, 1);
    if (!isActiveState(now)) this.open.delete(entry);
    else if (!this.open.has(entry)) {
      this.open.add(entry);
      this.reordered = true;
    }
  }

  /** The items not finished, in queue order. */
  openItems(): Iterable<E> {
    if (this.reordered) {
      this.reordered = false;
      this.open.clear();
      for (const entry of this.all()) if (isActiveState(entry.item.state)) this.open.add(entry);
    }
    return this.open;
  }

  /** The items sending now. */
  sending(): Iterable<E> {
    return this.sendingNow;
  }

  /** How many workspaces have items queued or waiting. */
  workspacesToStart(): number {
    return this.toStart.size;
  }

  /** The share's items still in the queue, in queue order. */
  shareItems(shareId: string): E[] {
    return [...(this.shares.get(shareId) ?? [])];
  }

  /** How many of the share's items are still in the queue. */
  shareSize(shareId: string): number {
    return this.shares.get(shareId)?.size ?? 0;
  }

  private counted(entry: E, state: ItemState, by: 1 | -1): void {
    if (state === 'sending') {
      if (by > 0) this.sendingNow.add(entry);
      else this.sendingNow.delete(entry);
    } else if (toStart(state)) {
      const ws = entry.item.workspaceId;
      const count = (this.toStart.get(ws) ?? 0) + by;
      if (count > 0) this.toStart.set(ws, count);
      else this.toStart.delete(ws);
    }
  }
}
