// The queue as people read it: one entry per share (the files sent together, to the same
// channels), in the order that matters: what is moving, then what needs a decision, then what
// is done. Newest first inside each band, so what you just sent is at the top.
import type { QueueItem } from '../../preload/contract';
import { isActive, isHeld } from './queue-state';

type Band = 'active' | 'attention' | 'finished';

export interface ShareGroup {
  /** The share's id; an item from before shares had ids stands alone under its own id. */
  id: string;
  items: QueueItem[];
  band: Band;
  /** When the share was queued (its first file's time). */
  createdAt: number;
}

const BAND_ORDER: Record<Band, number> = { active: 0, attention: 1, finished: 2 };

function needsDecision(item: QueueItem): boolean {
  return item.state === 'failed' || item.state === 'unknown' || isHeld(item);
}

function bandOf(items: readonly QueueItem[]): Band {
  // A held item (refused token, lost workspace) is waiting on the person, not on the network.
  if (items.some((i) => isActive(i) && !isHeld(i))) return 'active';
  if (items.some(needsDecision)) return 'attention';
  return 'finished';
}

function shareKey(item: QueueItem): string {
  // shareId groups a share's files; older journals may lack it.
  const shareId = (item as { shareId?: string }).shareId;
  return shareId ? `share:${shareId}` : `item:${item.id}`;
}

/**
 * The queue's shares in reading order. `first`, the share a person just sent from the sheet,
 * comes before every band: delivered in a blink, it would otherwise sink below the rows that
 * need attention, out of sight in a tray-sized window, just when they look for it.
 */
export function groupShares(queue: readonly QueueItem[], first?: string | null): ShareGroup[] {
  const byShare = new Map<string, QueueItem[]>();
  for (const item of queue) {
    const key = shareKey(item);
    const list = byShare.get(key);
    if (list) list.push(item);
    else byShare.set(key, [item]);
  }
  const groups = [...byShare].map(([id, items]) => ({
    id,
    items,
    band: bandOf(items),
    createdAt: Math.min(...items.map((i) => i.createdAt)),
  }));
  const lead = first ? `share:${first}` : null;
  const rank = (g: ShareGroup) => (g.id === lead ? -1 : BAND_ORDER[g.band]);
  return groups.sort((a, b) => rank(a) - rank(b) || b.createdAt - a.createdAt);
}

export interface Overall {
  /** Bytes sent: of files delivered, all of them; of files sending, what went so far. */
  sent: number;
  size: number;
  /** Files of the shares still moving, and how many of those are delivered. */
  files: number;
  delivered: number;
}

/**
 * One overall bar over the shares still moving, counted as each share's own row counts them
 * ("6 of 12 delivered", its bar in bytes with delivered files in full), so the two never tell
 * different stories: a bar over only what is left would read 7% where the share reads half.
 * Files held for the person (a refused token, a lost workspace) are left out: no waiting moves them.
 */
export function overallProgress(queue: readonly QueueItem[]): Overall {
  let sent = 0;
  let size = 0;
  let files = 0;
  let delivered = 0;
  for (const group of groupShares(queue)) {
    if (group.band !== 'active') continue;
    for (const item of group.items) {
      if (isHeld(item)) continue;
      files++;
      size += item.size;
      if (item.state === 'delivered') {
        delivered++;
        sent += item.size;
      } else if (item.state === 'sending') sent += item.sent;
    }
  }
  return { sent, size, files, delivered };
}
