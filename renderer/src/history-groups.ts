// History as people read it: one entry per share (the files sent together), newest first, the
// share placed where its newest file is. Entries from before shares had ids stand alone.
import type { HistoryEntry } from '../../preload/contract';

export interface HistoryGroup {
  /** The share's id, or the entry's own id when it has none. */
  id: string;
  /** Newest first, as the history lists them. */
  entries: HistoryEntry[];
  /** The outcome every file agrees on, if they do. */
  outcome: HistoryEntry['outcome'] | undefined;
}

export function groupHistory(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const byShare = new Map<string, HistoryEntry[]>();
  for (const entry of entries) {
    const key = entry.shareId ? `share:${entry.shareId}` : `entry:${entry.id}`;
    const list = byShare.get(key);
    if (list) list.push(entry);
    else byShare.set(key, [entry]);
  }
  return [...byShare].map(([id, list]) => {
    const first = list[0]!.outcome;
    return {
      id,
      entries: list,
      outcome: list.every((e) => e.outcome === first) ? first : undefined,
    };
  });
}
