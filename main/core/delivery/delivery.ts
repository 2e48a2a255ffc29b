// Delivery: one attempt at one queued file, and one completion of a share's files; what the
// queue runs, and nothing else. Its parts: the workspace and token an attempt goes with
// (sending-as.ts), the two protocols behind one interface (protocols.ts), the upload addresses
// asked for while files wait for a slot (upload-tickets.ts), what it says when a file cannot go
// or was refused (refusals.ts), and the one retry after an expired sign-in (expired-token.ts).
import type { ConversationCache, PeopleCache } from '../conversations/named-lists';
import type { QueueItem, Workspace } from '../model';
import type { OnceNotices } from '../once-notices';
import type { QueueDeps } from '../queue/queue-api';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import { askAhead } from '../upload/external/send-file';
import { LINKS_NEED_FILES_READ } from '../upload/file-links';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retriedAfterRenewal } from './expired-token';
import { external, type ProtocolContext, protocolOf } from './protocols';
import { nameRefusedChannels } from './refusals';
import { sendingAs, type TokenSource } from './sending-as';
import { UploadTickets } from './upload-tickets';

export interface DeliveryDeps extends TokenSource {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** After an unclear completion, how long files.info is asked (default SHARE_CHECK_WINDOW_MS, upload/external/share-check.ts). */
  shareCheckWindowMs?: number;
  retry?: Partial<RetryPolicy>;
  notices: OnceNotices;
  /** For naming refused channels and their people. */
  conversations: ConversationCache;
  people: PeopleCache;
}

/** What a protocol is given for one workspace's attempt or completion. */
function protocolContext(
  deps: DeliveryDeps,
  tickets: UploadTickets,
  workspaceId: string,
): ProtocolContext {
  return {
    tickets,
    transport: deps.transport,
    connectTimeoutMs: deps.connectTimeoutMs,
    idleTimeoutMs: deps.idleTimeoutMs,
    ...(deps.shareCheckWindowMs !== undefined
      ? { shareCheckWindowMs: deps.shareCheckWindowMs }
      : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
    // Links need files:read; said once per workspace while the app runs.
    onLinksUnavailable: () => deps.notices.say({ workspaceId, message: LINKS_NEED_FILES_READ }),
  };
}

export function openDelivery(
  deps: DeliveryDeps,
): Required<Pick<QueueDeps, 'runAttempt' | 'completeShare' | 'prepare'>> {
  const tickets = new UploadTickets();
  const context = (workspaceId: string) => protocolContext(deps, tickets, workspaceId);
  // Only a refusal is looked into (refusals.ts); a delivered file goes straight back.
  const named = (result: AttemptResult, item: QueueItem) =>
    result.kind === 'failed' ? nameRefusedChannels(result, item, deps) : result;
  // The workspace each attempt under way started with, by item id: a handed-over file's attempt
  // is still under way while its share completes.
  const startedWith = new Map<string, Workspace>();
  // A signed-in workspace's attempt or completion goes once more after a renewal.
  const sendAs = <R extends AttemptResult | AttemptResult[]>(
    as: { workspace: Workspace; token: string },
    send: (token: string) => Promise<R>,
  ) => (as.workspace.auth === 'slack' ? retriedAfterRenewal(deps, as, send) : send(as.token));

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
      startedWith.set(item.id, as.workspace);
      try {
        return named(await sendAs(as, send), item);
      } finally {
        startedWith.delete(item.id);
      }
    },
    prepare: (item, signal) => {
      tickets.ahead(item, async (stepOneGate) => {
        const as = await sendingAs(deps, item);
        // Its attempt finds out what is wrong and says so; nothing is asked ahead for it.
        if ('kind' in as || protocolOf(as.workspace) !== external) return undefined;
        return askAhead(uploadJobFor(item, as.workspace.baseUrl, as.token), {
          transport: deps.transport,
          signal,
          stepOneGate,
          ...(deps.connectTimeoutMs !== undefined
            ? { connectTimeoutMs: deps.connectTimeoutMs }
            : {}),
          ...(deps.idleTimeoutMs !== undefined ? { idleTimeoutMs: deps.idleTimeoutMs } : {}),
        });
      });
    },
    completeShare: async (items, hooks) => {
      const as = await sendingAs(deps, items[0]!, startedWith.get(items[0]!.id));
      const results =
        'kind' in as
          ? items.map(() => as)
          : // Through the external protocol whatever the workspace says now: the bytes went
            // that way, and only it completes files together.
            await sendAs(as, (token) =>
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

// What a protocol is asked to send for a queued item. The expected size and mtime are those
// seen when the item was queued, so a file changed since then fails as `file_changed` instead
// of sending other bytes than the person chose.
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
      ...(item.stripped ? { strip: { size: item.stripped.size } } : {}),
    },
  };
}
