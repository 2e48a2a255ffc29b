// Delivery: one attempt at one queued file, and one completion of a share's files; what the
// queue runs, and nothing else. It reads the workspace and token when the attempt starts, picks
// the workspace's protocol, and names the channels that refused a share.
import type { ConversationCache } from '../conversations/conversation-cache';
import type { PeopleCache } from '../conversations/people-cache';
import type { Protocol } from '../model';
import type { OnceNotices } from '../once-notices';
import type { QueueDeps } from '../queue/queue-api';
import type { AttemptResult } from '../upload/attempt';
import { LINKS_NEED_FILES_READ } from '../upload/file-links';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retriedAfterRenewal } from './expired-token';
import { external } from './external';
import { filesUpload } from './files-upload';
import { nameRefusedChannels } from './refused-channels';
import { sendingAs, type TokenSource } from './sending-as';
import { uploadJobFor } from './upload-job';
import type { ProtocolContext, UploadProtocol } from './upload-protocol';

export interface DeliveryDeps extends TokenSource {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  notices: OnceNotices;
  /** For naming refused channels and their people. */
  conversations: ConversationCache;
  people: PeopleCache;
}

const PROTOCOLS: Record<Protocol, UploadProtocol> = {
  'files.upload': filesUpload,
  external,
};

export function protocolOf(workspace: { protocol?: Protocol }): UploadProtocol {
  return PROTOCOLS[workspace.protocol ?? 'files.upload'];
}

export function openDelivery(
  deps: DeliveryDeps,
): Required<Pick<QueueDeps, 'runAttempt' | 'completeShare'>> {
  const context = (workspaceId: string): ProtocolContext => ({
    transport: deps.transport,
    connectTimeoutMs: deps.connectTimeoutMs,
    idleTimeoutMs: deps.idleTimeoutMs,
    ...(deps.retry ? { retry: deps.retry } : {}),
    // Links need files:read; said once per workspace while the app runs.
    onLinksUnavailable: () => deps.notices.say({ workspaceId, message: LINKS_NEED_FILES_READ }),
  });
  const named = (result: AttemptResult, item: Parameters<typeof nameRefusedChannels>[1]) =>
    nameRefusedChannels(result, item, deps.conversations, deps.people);

  return {
    runAttempt: async (item, hooks) => {
      const as = await sendingAs(deps, item);
      if ('kind' in as) return named(as, item);
      const protocol = protocolOf(as.workspace);
      const send = (token: string) =>
        protocol.send(
          uploadJobFor(item, as.workspace.baseUrl, token),
          hooks,
          context(as.workspace.id),
          { item, workspace: as.workspace },
        );
      return named(await retriedAfterRenewal(deps, as, send), item);
    },
    completeShare: async (items, hooks) => {
      const as = await sendingAs(deps, items[0]!);
      const results =
        'kind' in as
          ? items.map(() => as)
          : // Through the external protocol whatever the workspace says now: the bytes went
            // that way, and only it completes files together.
            await retriedAfterRenewal(deps, as, (token) =>
              external.complete(
                items.map((item) => uploadJobFor(item, as.workspace.baseUrl, token)),
                hooks,
                context(as.workspace.id),
              ),
            );
      return Promise.all(results.map((r, i) => named(r, items[i]!)));
    },
  };
}
