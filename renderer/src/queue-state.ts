// What a queue item's state means to the person looking at it.
import type { QueueItem } from '../../preload/contract';

export const isActive = (item: QueueItem): boolean =>
  item.state === 'queued' || item.state === 'waiting' || item.state === 'sending';

export const isFinished = (item: QueueItem): boolean => !isActive(item);

/** The workspace's queue stopped because the service refused its token. */
export const needsToken = (item: QueueItem): boolean =>
  item.error?.class === 'credential' && (item.state === 'waiting' || item.state === 'failed');

export const canRetry = (item: QueueItem): boolean =>
  item.state === 'failed' || item.state === 'unknown' || item.state === 'cancelled';

export const activeCount = (items: readonly QueueItem[]): number => items.filter(isActive).length;

export const needsAttention = (items: readonly QueueItem[]): boolean =>
  items.some((i) => i.state === 'failed' || i.state === 'unknown' || needsToken(i));

/** The service no longer offers files.upload: switching the workspace to Slack's protocol fixes it. */
export const retiredProtocol = (item: QueueItem): boolean =>
  item.state === 'failed' && item.error?.class === 'retired';
