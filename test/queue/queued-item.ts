// A queue item as the queue accepts it, for tests that build journals and stores by hand.
import type { QueueItem } from '../../main/core/model';

export function queuedItem(id: string, extra: Partial<QueueItem> = {}): QueueItem {
  return {
    id,
    shareId: 'S1',
    workspaceId: 'W1',
    channels: ['C1'],
    comment: '',
    path: `/tmp/${id}.txt`,
    name: `${id}.txt`,
    size: 10,
    mtimeMs: 1,
    state: 'queued',
    sent: 0,
    attempts: 0,
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  };
}
