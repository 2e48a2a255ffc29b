// A share some of its channels refused, as the "Change destination" sheet starts from: the same
// files and comment, the channels that did not refuse, and the queue item to send elsewhere.
import type { FailureReason } from '../../preload/contract';

export interface Redirect {
  workspaceId: string;
  /** The channels that did not refuse: where the sheet starts. */
  channels: string[];
  /** The channels that refused, said once in the sheet. */
  refused: string[];
  comment: string;
  paths: string[];
  /** The failed queue item (once it left the queue, the files go as a new share). */
  itemId: string;
  /** A reply in a thread keeps to one channel. */
  threadTs?: string;
  /** The names the share was made with, by ID. */
  labels?: Record<string, string>;
  /** Where Cancel goes back to. */
  from: 'queue' | 'history';
}

interface Refusable {
  id: string;
  shareId?: string;
  workspaceId: string;
  channels: string[];
  comment: string;
  path: string;
  error?: FailureReason;
  labels?: Record<string, string>;
}

/** The channels that refused `item`, when some of its channels did and others did not. */
function refusedChannels(item: { channels: readonly string[]; error?: FailureReason }): string[] {
  // Without a list of which, a refusal of a one-channel share is that channel's.
  return item.error?.refusedChannels ?? (item.channels.length === 1 ? [...item.channels] : []);
}

export const othersOf = (item: { channels: readonly string[]; error?: FailureReason }): string[] =>
  item.channels.filter((c) => !refusedChannels(item).includes(c));

/** The refused share as the sheet takes it: the files of `items` refused the same way. */
export function redirectOf(
  item: Refusable & { threadTs?: string },
  share: readonly Refusable[],
  from: Redirect['from'],
): Redirect {
  const refused = refusedChannels(item);
  const same = share.filter(
    (i) =>
      i.id === item.id ||
      (i.shareId !== undefined &&
        i.shareId === item.shareId &&
        i.error?.code === item.error?.code &&
        i.channels.join() === item.channels.join() &&
        refusedChannels(i).join() === refused.join()),
  );
  return {
    workspaceId: item.workspaceId,
    channels: othersOf(item),
    refused,
    comment: item.comment,
    paths: [...new Set(same.map((i) => i.path))],
    itemId: item.id,
    ...(item.threadTs ? { threadTs: item.threadTs } : {}),
    ...(item.labels ? { labels: item.labels } : {}),
    from,
  };
}

/** The queue item a history entry (`ITEM.N`) was written for. */
export const itemIdOf = (historyId: string): string => historyId.replace(/\.\d+$/, '');
