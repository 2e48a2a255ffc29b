// What a queue item's state means to the person looking at it.
import { isActiveState } from '../../main/portable/item-states';
import type { QueueItem } from '../../preload/contract';

export const isActive = (item: QueueItem): boolean => isActiveState(item.state);

export const isFinished = (item: QueueItem): boolean => !isActive(item);

/**
 * Held by the queue until the person acts, not by the network: a token the service refused, or
 * a workspace lost with a damaged settings file.
 */
export const isHeld = (item: QueueItem): boolean =>
  item.error?.class === 'credential' && (item.state === 'waiting' || item.state === 'failed');

/** Waiting for its workspace, lost with a settings file that was set aside (the message names the copy). */
export const workspaceLost = (item: QueueItem): boolean =>
  isHeld(item) && item.error?.code === 'workspace_lost';

/** The workspace's queue stopped because the service refused its token: a new token frees it. */
export const needsToken = (item: QueueItem): boolean => isHeld(item) && !workspaceLost(item);

export const canRetry = (item: QueueItem): boolean =>
  item.state === 'failed' || item.state === 'unknown' || item.state === 'cancelled';

export const activeCount = (items: readonly QueueItem[]): number => items.filter(isActive).length;

export const needsAttention = (items: readonly QueueItem[]): boolean =>
  items.some((i) => i.state === 'failed' || i.state === 'unknown' || isHeld(i));

/** The service no longer offers files.upload: switching the workspace to Slack's protocol fixes it. */
export const retiredProtocol = (item: QueueItem): boolean =>
  item.state === 'failed' && item.error?.class === 'retired';

/** Failed because a channel refused it (not there, or the app not in it): another may not. */
export const refusedByChannel = (item: {
  state?: string;
  outcome?: string;
  error?: QueueItem['error'];
}): boolean =>
  (item.state ?? item.outcome) === 'failed' &&
  ((item.error?.refusedChannels?.length ?? 0) > 0 ||
    item.error?.code === 'not_in_channel' ||
    item.error?.code === 'channel_not_found');

/**
 * A failure's reason for a workspace that is gone: without the advice to send it to the others
 * or elsewhere, which the row no longer offers, and saying why.
 */
export function goneReason(message: string): string {
  if (/workspace of this upload was removed/.test(message)) return message;
  const reason = message.replace(
    /\s*Send to the others \([^)]*\), or change the destination\.$/,
    '',
  );
  return `${reason} Its workspace was removed, so it cannot be sent again.`;
}

/** Refused by some of its channels while the others would take it. */
export const canSendToOthers = (item: QueueItem): boolean =>
  refusedByChannel(item) &&
  (item.error?.refusedChannels?.length ?? 0) > 0 &&
  item.channels.some((c) => !item.error?.refusedChannels?.includes(c));
