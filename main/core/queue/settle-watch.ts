// Waiting for the queue to come to rest (settled): nothing more can happen without the
// person, what is left waits for a token, the pause or disk space.
import type { ItemState, QueueItem } from '../model';
import { UNWRITABLE_JOURNAL_CODES } from './unwritable-journal';

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

  /** Wakes the waiters whose moment has come. */
  wake(count: OpenCount): void {
    if (count.active === count.blocked && this.settledWaiters.length > 0) {
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const w of waiters) w();
    }
  }
}
