// What History's buttons do to a finished upload: the same queue item while the queue still has
// it (so its one history row is updated and nothing is posted twice), else a new share.
import { isFinishedState } from '../../../main/portable/item-states';
import type { HistoryEntry } from '../../../preload/contract';
import { api } from '../bridge';
import { itemIdOf, othersOf } from '../redirect';

/**
 * "Send to the others" from History: the same queue item while it is still there (one history
 * row, never posted twice); once cleared from the queue, the files as a new share to the others.
 */
export async function sendToOthers(entry: HistoryEntry, paths: string[]): Promise<void> {
  const itemId = itemIdOf(entry.id);
  const queued = (await api().listQueue()).find((i) => i.id === itemId);
  if (queued?.state === 'failed') return api().sendToOthers(itemId);
  if (queued) throw new Error('This upload was sent again meanwhile; see the queue.');
  const shared = await api().share({
    target: { workspaceId: entry.workspaceId, channels: othersOf(entry) },
    comment: entry.comment === '' ? undefined : entry.comment,
    paths,
  });
  const refused = shared.refused[0];
  if (refused) throw new Error(`Not queued: ${refused.reason}`);
}

/** Retry (or "Send again") from History; resolves to the note the row shows after. */
export async function sendAgain(entry: HistoryEntry): Promise<{ note: string }> {
  // Still in the queue: retried as the same item, so its one history row is updated.
  const itemId = entry.id.replace(/\.\d+$/, '');
  const queued = (await api().listQueue()).find((i) => i.id === itemId);
  if (queued && isFinishedState(queued.state)) {
    await api().retryItem(itemId);
    return { note: 'Queued again.' };
  }
  if (queued) return { note: 'Already in the queue.' };
  // Cleared from the queue: sent again as a new upload.
  const shared = await api().share({
    target: { workspaceId: entry.workspaceId, channels: entry.channels },
    comment: entry.comment === '' ? undefined : entry.comment,
    paths: [entry.path],
  });
  const refused = shared.refused[0];
  return { note: refused ? `Not queued: ${refused.reason}` : 'Queued again.' };
}
