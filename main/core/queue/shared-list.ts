// What every change event hands listeners: every item of the queue, in queue order, as frozen
// copies. Each item's copy is made once per change of the item, and the list is patched where
// items changed rather than built again from the whole queue at every event: with hundreds of
// small files there is an event per turn of the event loop, and listing every item for each
// grew with the queue (bench/small-files.ts). Frozen, so a listener cannot change what the next
// event hands out; each event gets its own array.
import type { QueueItem } from '../model';
import type { JournalEntry } from './journal';

export class SharedList<E extends JournalEntry> {
  /** Copies handed out, by item, until the item changes. */
  private readonly copies = new WeakMap<QueueItem, QueueItem>();
  private list: QueueItem[] | undefined;
  private places = new Map<E, number>();
  private readonly changed = new Set<E>();

  constructor(
    /** The whole queue, in queue order. */
    private readonly all: () => Iterable<E>,
    private readonly copy: (item: QueueItem) => QueueItem,
  ) {}

  /** The item changed: its next copy is made afresh. */
  itemChanged(entry: E): void {
    this.copies.delete(entry.item);
    if (this.list) this.changed.add(entry);
  }

  /** Items were added or removed: the next list is built from the whole queue. */
  queueChanged(): void {
    this.list = undefined;
    this.changed.clear();
  }

  /** A frozen copy of the item as it is now, the same object until the item changes. */
  copyOf(entry: E): QueueItem {
    let copy = this.copies.get(entry.item);
    if (!copy) {
      copy = freezeItem(this.copy(entry.item));
      this.copies.set(entry.item, copy);
    }
    return copy;
  }

  /** Every item, in queue order: a new array each time. */
  items(): QueueItem[] {
    if (!this.list) {
      this.places = new Map();
      const list: QueueItem[] = [];
      for (const entry of this.all()) {
        this.places.set(entry, list.length);
        list.push(this.copyOf(entry));
      }
      this.list = list;
      return [...list];
    }
    for (const entry of this.changed) this.list[this.places.get(entry)!] = this.copyOf(entry);
    this.changed.clear();
    return [...this.list];
  }
}

function freezeItem(item: QueueItem): QueueItem {
  Object.freeze(item.channels);
  if (item.labels) Object.freeze(item.labels);
  if (item.error) {
    if (item.error.channels) Object.freeze(item.error.channels);
    if (item.error.refusedChannels) Object.freeze(item.error.refusedChannels);
    Object.freeze(item.error);
  }
  if (item.file) {
    if (item.file.channels) Object.freeze(item.file.channels);
    Object.freeze(item.file);
  }
  return Object.freeze(item);
}
