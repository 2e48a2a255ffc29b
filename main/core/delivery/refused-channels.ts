// Which channels of a share refused it, when the service's answer does not say.

import { destinationLabels, looksLikeUserId } from '../../portable/people-names';
import type { ConversationCache } from '../conversations/conversation-cache';
import type { PeopleCache } from '../conversations/people-cache';
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';

const REFUSED_BY_CHANNEL = new Set(['not_in_channel', 'channel_not_found']);

/**
 * The service names no channel in not_in_channel / channel_not_found. On a share to several
 * channels, a fresh channel list tells which ones: not listed, or listed without the app.
 */
export async function nameRefusedChannels(
  result: AttemptResult,
  item: QueueItem,
  conversations: ConversationCache,
  people: PeopleCache,
): Promise<AttemptResult> {
  if (result.kind !== 'failed' || !REFUSED_BY_CHANNEL.has(result.reason.code)) return result;
  if (item.channels.length < 2) return result;
  const view = await conversations.get(item.workspaceId, { refresh: true, wait: true });
  const list = view.conversations;
  if (!list) return result;
  // A user ID is never listed: the service opens the DM with that person.
  const refused = item.channels.filter((id) => {
    const c = list.find((conv) => conv.id === id);
    return !c?.isMember && !looksLikeUserId(id);
  });
  if (refused.length === 0 || refused.length === item.channels.length) return result;
  const labels = destinationLabels(list, people.cached(item.workspaceId));
  const label = (id: string) => labels.get(id) ?? id;
  const others = item.channels.filter((c) => !refused.includes(c));
  return {
    kind: 'failed',
    reason: {
      ...result.reason,
      refusedChannels: refused,
      message: `Not shared: ${refused.map(label).join(', ')} refused it (${result.reason.code === 'not_in_channel' ? 'invite the app first' : 'no such channel for this token'}). Send to the others (${others.map(label).join(', ')}), or change the destination.`,
    },
  };
}
