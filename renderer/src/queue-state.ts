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

/** A finished item's Retry (or "Send again") is offered: see retryCanWork. */
export const canRetry = (item: QueueItem): boolean => retryCanWork(item);

/** What the service or the app refuses the same way until someone changes it. */
const LASTING = new Set([
  'blocked_file_type',
  'file_upload_size_restricted',
  'workspace_removed',
  'invalid_channels',
]);

/**
 * Whether trying again as it was can work: only where the cause can change on its own (the
 * network, the service, an answer that never came, a file put back, a cancel). Not a channel
 * that refused it, a file type or size the workspace refuses, a removed workspace: Retry would
 * fail alike and offer Retry again. Where the person can change something (a token, the
 * protocol, the destination), the row offers that instead.
 */
export function retryCanWork(item: {
  state?: string;
  outcome?: string;
  error?: QueueItem['error'];
}): boolean {
  const state = item.state ?? item.outcome;
  if (state === 'cancelled' || state === 'unknown') return true;
  if (state !== 'failed' || refusedByChannel(item)) return false;
  const reason = item.error;
  if (!reason) return true;
  if (LASTING.has(reason.code)) return false;
  return !['target', 'credential', 'retired', 'redirect'].includes(reason.class);
}

export const activeCount = (items: readonly QueueItem[]): number => items.filter(isActive).length;

export const needsAttention = (items: readonly QueueItem[]): boolean =>
  items.some((i) => i.state === 'failed' || i.state === 'unknown' || isHeld(i));

/**
 * What the navigation's "needs attention" dot stands for, in words: "2 failed, 1 may have been
 * delivered, 1 on hold" (a token refused, a workspace lost). Empty when nothing needs attention.
 */
export function attentionSummary(items: readonly QueueItem[]): string {
  let failed = 0;
  let unknown = 0;
  let held = 0;
  for (const i of items) {
    if (isHeld(i)) held++;
    else if (i.state === 'failed') failed++;
    else if (i.state === 'unknown') unknown++;
  }
  return [
    failed > 0 ? `${failed} failed` : '',
    unknown > 0 ? `${unknown} may have been delivered` : '',
    held > 0 ? `${held} on hold` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

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
  // A refusal's last sentence is its advice (refusals.ts): what the row no longer offers.
  const reason = message.replace(/\s*(?:Send to the others|Join |Check the name in Slack).*$/s, '');
  return `${reason} Its workspace was removed, so it cannot be sent again.`;
}

/** Refused by some of its channels while the others would take it. */
export const canSendToOthers = (item: QueueItem): boolean =>
  refusedByChannel(item) &&
  (item.error?.refusedChannels?.length ?? 0) > 0 &&
  item.channels.some((c) => !item.error?.refusedChannels?.includes(c));
