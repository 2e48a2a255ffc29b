// What a protocol is asked to send for a queued item. The expected size and mtime are those
// seen when the item was queued, so a file changed since then fails as `file_changed` instead
// of sending other bytes than the person chose.
import type { QueueItem } from '../model';
import type { UploadJob } from '../upload/attempt';

export function uploadJobFor(item: QueueItem, baseUrl: string, token: string): UploadJob {
  return {
    baseUrl,
    token,
    channels: item.channels,
    comment: item.comment,
    ...(item.threadTs ? { threadTs: item.threadTs } : {}),
    file: {
      path: item.path,
      name: item.name,
      expectedSize: item.size,
      expectedMtimeMs: item.mtimeMs,
    },
  };
}
