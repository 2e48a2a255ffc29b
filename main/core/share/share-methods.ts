// The core API's share methods: a share is intake, then the queue; and what the person asks of
// its files afterwards (cancel, retry, another destination, send to the others).
import type { AppService } from '../api';
import { refusedTogether, sendToOthers } from '../queue/send-to-others';
import type { UploadQueue } from '../queue/upload-queue';
import { RefusedError } from '../refused-error';
import type { Intake } from './intake';

export function shareMethods(
  queue: UploadQueue,
  intake: Intake,
): Pick<
  AppService,
  | 'share'
  | 'listQueue'
  | 'cancelItem'
  | 'retryItem'
  | 'sendToOthers'
  | 'changeDestination'
  | 'clearFinished'
> {
  return {
    share: async (request) => queue.enqueue(await intake.take(request)),
    listQueue: async () => queue.list(),
    cancelItem: (id) => queue.cancel(id),
    retryItem: (id) => queue.retry(id),
    sendToOthers: (id) => sendToOthers(queue, id),
    changeDestination: async (id, channels) => {
      const item = queue.list().find((i) => i.id === id);
      if (!item) throw new RefusedError('That upload is no longer in the queue.');
      const ids = await intake.destination(item.workspaceId, channels, item.threadTs);
      // Like "Send to the others": a share refused as a whole moves as a whole, as one share.
      await queue.retryTogether(item.state === 'failed' ? refusedTogether(queue, item) : [id], {
        channels: ids,
      });
    },
    clearFinished: () => queue.clearFinished(),
  };
}
