// Delivery: one attempt at one queued file, and one completion of a share's files; what the
// queue runs, and nothing else. It reads the workspace and token when the attempt starts (the
// person may have changed either since the file was queued), picks the workspace's protocol,
// and names the channels that refused a share.
import { destinationLabels, looksLikeUserId } from '../../portable/people-names';
import { type Renewal, RenewalError } from '../auth/renewal';
import type { ConversationCache } from '../conversations/conversation-cache';
import type { PeopleCache } from '../conversations/people-cache';
import type { FailureReason, Protocol, QueueItem, Workspace } from '../model';
import type { OnceNotices } from '../once-notices';
import type { QueueDeps } from '../queue/queue-api';
import { KeychainError } from '../secrets/secret-store';
import { keptCopiesSince } from '../settings/settings-file';
import type { SettingsService } from '../settings/settings-service';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import { LINKS_NEED_FILES_READ } from '../upload/file-links';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retriedAfterRenewal } from './expired-token';
import {
  external,
  filesUpload,
  type ProtocolContext,
  type UploadProtocol,
} from './upload-protocol';

/** Where a workspace's token comes from: the keychain, unless the process was given one. */
interface TokenSource {
  settings: Pick<SettingsService, 'workspace'>;
  /** The token to send with, or null when none is saved; throws KeychainError. */
  token(workspace: Workspace): Promise<string | null>;
  /** The user-data folder, where a damaged settings file is set aside. */
  dataDir: string;
  /**
   * A signed-in workspace's new access token after the service answered token_expired (absent
   * for a token given to the process, which cannot be renewed); throws RenewalError.
   */
  renew?: (workspace: Workspace, staleToken: string) => Promise<string>;
}

/**
 * The CLI's TRAYSHARE_TOKEN wins over the keychain, so scripts need no login. Otherwise the
 * keychain's, through the renewal when there is one: a signed-in workspace's access token is
 * renewed before it expires (auth/renewal.ts).
 */
export function tokenLookup(
  settings: Pick<SettingsService, 'token'>,
  override: string | undefined,
  renewal?: Renewal,
): (workspace: Workspace) => Promise<string | null> {
  return async (workspace) => {
    if (override) return override;
    // A pasted token is read as it always was: only a signed-in workspace's can be renewed.
    return renewal && workspace.auth === 'slack'
      ? renewal.accessToken(workspace)
      : settings.token(workspace.id);
  };
}

function keychainFailure(error: KeychainError): FailureReason {
  // A keychain problem stops this workspace's queue like a refused token would: the items
  // wait, nothing is lost, and the person is told what to fix.
  return { class: 'credential', code: `keychain_${error.problem}`, message: error.message };
}

/** The workspace and token an item goes with, or why it cannot go now. */
async function sendingAs(
  source: TokenSource,
  item: QueueItem,
): Promise<{ workspace: Workspace; token: string } | AttemptResult> {
  const workspace = source.settings.workspace(item.workspaceId);
  if (!workspace) return workspaceGone(source.dataDir, item);
  let token: string | null;
  try {
    token = await source.token(workspace);
  } catch (error) {
    if (error instanceof KeychainError) return { kind: 'failed', reason: keychainFailure(error) };
    // The sign-in ran out (credential: the workspace waits for "Sign in again") or could not
    // be renewed just now (transient: tried again later). Nothing was sent either way.
    if (error instanceof RenewalError) return { kind: 'failed', reason: error.reason };
    throw error;
  }
  if (token === null) {
    // The token was removed after the files were queued: pause the workspace and ask, as for a
    // refused token, rather than failing files the person still wants to send.
    return {
      kind: 'failed',
      reason: {
        class: 'credential',
        code: 'no_token',
        message: `${workspace.name} has no token saved any more: add it in Settings to send the waiting files.`,
      },
    };
  }
  return { workspace, token };
}

function workspaceGone(dataDir: string, item: QueueItem): AttemptResult {
  // Not removed by the person but lost with a broken settings file set aside after the file
  // was queued: the upload waits (nothing is lost) until the workspace is back or it is
  // cancelled.
  const kept = keptCopiesSince(dataDir, item.createdAt)[0];
  if (kept) {
    return {
      kind: 'failed',
      reason: {
        class: 'credential',
        code: 'workspace_lost',
        message: `The workspace of this upload was in a settings file that was damaged and set aside as ${kept}. Put the workspace back (repair that copy and restore it as config.json), then try again; or cancel the upload.`,
      },
    };
  }
  return {
    kind: 'failed',
    reason: {
      class: 'input',
      code: 'workspace_removed',
      message: 'The workspace of this upload was removed.',
    },
  };
}

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
  const completeAs = (
    as: { workspace: Workspace; token: string },
    complete: (token: string) => Promise<AttemptResult[]>,
  ) =>
    as.workspace.auth === 'slack' ? retriedAfterRenewal(deps, as, complete) : complete(as.token);

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
      const signedIn = as.workspace.auth === 'slack';
      return named(await (signedIn ? retriedAfterRenewal(deps, as, send) : send(as.token)), item);
    },
    completeShare: async (items, hooks) => {
      const as = await sendingAs(deps, items[0]!);
      const results =
        'kind' in as
          ? items.map(() => as)
          : // Through the external protocol whatever the workspace says now: the bytes went
            // that way, and only it completes files together.
            await completeAs(as, (token) =>
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
    },
  };
}

// Which channels of a share refused it, when the service's answer does not say.
const REFUSED_BY_CHANNEL = new Set(['not_in_channel', 'channel_not_found']);

/**
 * The service names no channel in not_in_channel / channel_not_found. On a share to several
 * channels, a fresh channel list tells which ones: not listed, or listed without the app.
 */
async function nameRefusedChannels(
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
