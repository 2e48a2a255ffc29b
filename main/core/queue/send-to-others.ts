// "Send to the others": a share some of whose channels refused it goes again to the rest; and
// which files of a share were refused together, so they move together.
import type { QueueItem } from '../model';
import { RefusedError } from '../refused-error';
import type { UploadQueue } from './upload-queue';

export async function sendToOthers(queue: UploadQueue, id: string): Promise<void> {
  const item = queue.list().find((i) => i.id === id);
  const refused = item?.error?.refusedChannels;
  if (item?.state !== 'failed' || !refused?.length) {
    throw new RefusedError('This upload has no channels left to send to.');
  }
  const others = item.channels.filter((c) => !refused.includes(c));
  if (others.length === 0) throw new RefusedError('Every channel of this upload refused it.');
  // The files of the share refused the same way go too: one choice for the person, and on
  // the external protocol they complete together again, as one message.
  await queue.retryTogether(refusedTogether(queue, item), { channels: others });
}

/** The item and the other files of its share that failed the same way, to the same channels. */
export function refusedTogether(queue: UploadQueue, item: QueueItem): string[] {
  const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
    a?.length === b?.length && (a ?? []).every((c, i) => c === b?.[i]);
  return queue
    .list()
    .filter(
      (i) =>
        i.id === item.id ||
        (i.shareId === item.shareId &&
          i.state === 'failed' &&
          i.error?.code === item.error?.code &&
          same(i.channels, item.channels) &&
          same(i.error?.refusedChannels, item.error?.refusedChannels)),
    )
    .map((i) => i.id);
}
