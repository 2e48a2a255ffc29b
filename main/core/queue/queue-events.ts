// The queue's listeners, and those waiting for it to come to rest. State changes go out once per tick (several changes in one tick make
// one event); progress alone at most every PROGRESS_INTERVAL_MS, so a fast upload does not
// flood the window with events.
import type { ItemState, QueueItem } from '../model';
import { UNWRITABLE_JOURNAL_CODES } from './unwritable-journal';

const PROGRESS_INTERVAL_MS = 100;

export interface NeedsTokenEvent {
  workspaceId: string;
  message: string;
}

export class QueueEvents {
  private readonly changeListeners = new Set<(items: QueueItem[]) => void>();
  private readonly finishedListeners = new Set<(item: QueueItem) => void>();
  private readonly tokenListeners = new Set<(e: NeedsTokenEvent) => void>();
  private changeQueued = false;
  private progressTimer: ReturnType<typeof setTimeout> | undefined;
  private lastChangeAt = 0;

  /** `list` gives the items as listeners get them (copies, in queue order). */
  constructor(private readonly list: () => QueueItem[]) {}

  onChange(listener: (items: QueueItem[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onFinished(listener: (item: QueueItem) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  onNeedsToken(listener: (e: NeedsTokenEvent) => void): () => void {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
  }

  /** An item's state changed. */
  changed(): void {
    if (this.changeQueued) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.emitChange();
    });
  }

  /** Only an item's progress changed. */
  progressed(): void {
    if (this.progressTimer || this.changeQueued) return;
    const delay = Math.max(0, this.lastChangeAt + PROGRESS_INTERVAL_MS - Date.now());
    this.progressTimer = setTimeout(() => {
      this.progressTimer = undefined;
      this.emitChange();
    }, delay);
    this.progressTimer.unref?.();
  }

  finished(item: QueueItem): void {
    for (const l of this.finishedListeners) safely(() => l(item));
  }

  needsToken(event: NeedsTokenEvent): void {
    for (const l of this.tokenListeners) safely(() => l(event));
  }

  /** No more progress events (the queue is closing). */
  stopProgress(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
  }

  clear(): void {
    this.changeListeners.clear();
    this.finishedListeners.clear();
    this.tokenListeners.clear();
  }

  private emitChange(): void {
    this.stopProgress();
    this.lastChangeAt = Date.now();
    if (this.changeListeners.size === 0) return;
    const items = this.list();
    for (const l of this.changeListeners) safely(() => l(items));
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // a listener's failure is its own
  }
}

// Waiting for the queue to come to rest (settled): nothing more can happen without the
// person, what is left waits for a token, the pause or disk space.
export interface OpenCount {
  active: number;
  /** Active items that wait for the person. */
  blocked: number;
}

export function countOpen(
  items: Iterable<QueueItem>,
  is: {
    active: (state: ItemState) => boolean;
    paused: boolean;
    needsToken: (workspaceId: string) => boolean;
    /** Handed over to its share's completion. */
    handedOver: (item: QueueItem) => boolean;
  },
): OpenCount {
  let active = 0;
  let blocked = 0;
  const blockedShares = new Set<string>();
  const handedOver: QueueItem[] = [];
  for (const item of items) {
    if (!is.active(item.state)) continue;
    active++;
    if (item.state === 'sending') {
      if (is.handedOver(item)) handedOver.push(item);
      continue;
    }
    if (
      is.paused ||
      is.needsToken(item.workspaceId) ||
      // A journal that cannot be written waits for the person to free space.
      (item.state === 'waiting' && UNWRITABLE_JOURNAL_CODES.has(item.error?.code ?? ''))
    ) {
      blocked++;
      blockedShares.add(item.shareId);
    }
  }
  // Files waiting for a share whose other files wait for the person wait for the person too.
  for (const item of handedOver) if (blockedShares.has(item.shareId)) blocked++;
  return { active, blocked };
}

export class SettleWatch {
  private settledWaiters: (() => void)[] = [];

  /** `check` counts the open items and calls wake: run at once for each new waiter. */
  constructor(private readonly check: () => void) {}

  settled(): Promise<void> {
    return new Promise((resolve) => {
      this.settledWaiters.push(resolve);
      this.check();
    });
  }

  /** Whether anyone waits: with no one, counting the open items is work for nothing. */
  get waiting(): boolean {
    return this.settledWaiters.length > 0;
  }

  /** Wakes the waiters whose moment has come. */
  wake(count: OpenCount): void {
    if (count.active === count.blocked && this.settledWaiters.length > 0) {
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const w of waiters) w();
    }
  }
}
