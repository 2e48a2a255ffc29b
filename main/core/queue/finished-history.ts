// The hand-off of a finished item to History. The journal marks it "history pending" with its
// outcome; the line goes to History, then the mark is cleared. A line History could not take
// stays pending and is written on the next open, so no outcome is missing from History and a
// replay never writes one twice (each finish has its own id).
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../model';
import type { Entry, FinishedState, ItemStore } from './item-store';

export function historyRecord(
  entry: Entry,
  workspaceName: ((workspaceId: string) => string | undefined) | undefined,
): HistoryEntry {
  const { item, meta } = entry;
  return {
    // Numbered by finish: an item the person retried gets a second entry, a replay does not.
    id: `${item.id}.${meta.finishes}`,
    shareId: item.shareId,
    at: item.updatedAt,
    workspaceId: item.workspaceId,
    // As the share's intake read it; else now. Empty: the history store names it (its own
    // resolver, else the id).
    workspaceName: meta.workspaceName ?? workspaceName?.(item.workspaceId) ?? '',
    channels: [...item.channels],
    comment: item.comment,
    path: item.path,
    name: item.name,
    size: item.size,
    outcome: item.state as FinishedState,
    ...(item.error ? { error: structuredClone(item.error) } : {}),
    ...(item.file?.permalink ? { permalink: item.file.permalink } : {}),
    ...(item.file?.id ? { fileId: item.file.id } : {}),
  };
}

export async function writeHistory(
  entry: Entry,
  record: HistoryEntry,
  to: { history: HistoryStore; store: ItemStore<Entry>; compact: () => Promise<void> },
): Promise<void> {
  try {
    await to.history.append(record);
  } catch {
    // Kept pending: the next open writes it.
    return;
  }
  if (record.id !== `${entry.item.id}.${entry.meta.finishes}`) return;
  entry.meta.historyPending = false;
  await to.store
    .append([{ t: 'set', id: entry.item.id, meta: { historyPending: false } }], false)
    .catch(() => {});
  await to.compact();
}
