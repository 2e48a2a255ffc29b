// Delivery: one attempt at one queued file, and one completion of a share's files; what the
// queue runs, and nothing else. It reads the workspace and token when the attempt starts (the
// person may have changed either since the file was queued), picks the workspace's protocol,
// and names the channels that refused a share.
// Both ways of delivering a file implement one interface, UploadProtocol: files.upload (one
// request per file, one message each) and Slack's external upload protocol (each file's bytes
// on their own, then the files of a share completed together as one message). Delivery picks a
// protocol once instead of branching on it at every step.
import { destinationLabels, looksLikeUserId } from '../../portable/people-names';
import { type Renewal, RenewalError } from '../auth/renewal';
import type { ConversationCache, PeopleCache } from '../conversations/named-lists';
import type { FailureReason, Protocol, QueueItem, Workspace } from '../model';
import type { OnceNotices } from '../once-notices';
import type { AttemptHooks, QueueDeps, ShareHooks } from '../queue/queue-api';
import { KeychainError } from '../secrets/secret-store';
import { keptCopiesSince } from '../settings/settings-file';
import type { SettingsService, WorkspaceNow } from '../settings/settings-service';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import { uploadOnce } from '../upload/engine';
import { completeExternalShare } from '../upload/external/complete';
import { asExternalCheckpoint, type ExternalCheckpoint } from '../upload/external/request';
import { uploadExternal } from '../upload/external/send-file';
import { askAhead } from '../upload/external/upload-bytes';
import { LINKS_NEED_FILES_READ } from '../upload/file-links';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retriedAfterRenewal } from './expired-token';
import { UploadTickets } from './upload-tickets';

/** Where a workspace's token comes from: the keychain, unless the process was given one. */
interface TokenSource {
  settings: WorkspaceNow;
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

/**
 * The workspace and token an item goes with, or why it cannot go now. `started` is the workspace
 * its attempt started with, given for a completion, which reads no settings (see
 * settingsOncePerTurn in settings-service.ts).
 */
async function sendingAs(
  source: TokenSource,
  item: QueueItem,
  started?: Workspace,
): Promise<{ workspace: Workspace; token: string } | AttemptResult> {
  // An attempt reads the workspace as it is now; a completion takes its attempts' workspace
  // unless a change event removed it since.
  const workspace =
    started === undefined
      ? source.settings.workspace(item.workspaceId)
      : source.settings.removed(item.workspaceId)
        ? undefined
        : started;
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

/** What a protocol needs besides the job: how to reach the service, and what to say once. */
interface ProtocolContext {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The token cannot read files, so links are missing; said once per workspace. */
  onLinksUnavailable: () => void;
  /** Upload addresses asked for while files waited for a slot (external protocol). */
  tickets: UploadTickets;
}

/** Who the attempt is for, so what went wrong can name the file and the workspace. */
interface Sending {
  item: QueueItem;
  workspace: Workspace;
}

interface UploadProtocol {
  /** One message per file: the share's comment goes with its first file only. */
  readonly commentOnFirstOnly: boolean;
  /** One attempt at one queued file. */
  send(
    job: UploadJob,
    hooks: AttemptHooks,
    ctx: ProtocolContext,
    sending: Sending,
  ): Promise<AttemptResult>;
  /** Files of one share whose bytes are on the service, shared together; one result each. */
  complete(jobs: UploadJob[], hooks: ShareHooks, ctx: ProtocolContext): Promise<AttemptResult[]>;
}

/** What every attempt takes, whichever protocol carries it. */
function attemptOptions(hooks: AttemptHooks, ctx: ProtocolContext) {
  return {
    transport: ctx.transport,
    signal: hooks.signal,
    onProgress: (sent: number) => hooks.onProgress(sent),
    beforeBodyComplete: hooks.beforeBodyComplete,
    connectTimeoutMs: ctx.connectTimeoutMs,
    idleTimeoutMs: ctx.idleTimeoutMs,
  };
}

const filesUpload: UploadProtocol = {
  commentOnFirstOnly: true,
  async send(job, hooks, ctx, { item, workspace }) {
    if (asExternalCheckpoint(hooks.resume)?.completing) {
      // Switched away from the external protocol while a share of this file was unanswered:
      // sending it through files.upload now could share it twice.
      return {
        kind: 'unknown',
        reason: {
          class: 'unknown-outcome',
          code: 'protocol_changed',
          message: `A request sharing ${item.name} through Slack's external protocol got no answer, and ${workspace.name} has been switched to files.upload since. It may have been delivered: check the channel before sending it again.`,
        },
      };
    }
    const result: AttemptResult = await uploadOnce(job, attemptOptions(hooks, ctx));
    if (result.kind === 'failed' && result.reason.class === 'retired') {
      return { kind: 'failed', reason: retiredReason(workspace, result.reason) };
    }
    return result;
  },
  async complete() {
    // The queue hands a file over for completing only when its attempt asked it to, and a
    // files.upload attempt never does: each request shares its file.
    throw new Error('files.upload shares each file on its own: there is nothing to complete.');
  },
};

/**
 * files.upload is gone from this service. `class: 'retired'` with the service's own code is the
 * marker the UI acts on: it offers to switch the workspace to the external protocol
 * (updateWorkspace(id, { protocol: 'external' })) and to send the item again (retryItem).
 */
function retiredReason(workspace: Workspace, reason: FailureReason): FailureReason {
  return {
    ...reason,
    message: `${workspace.name} no longer offers files.upload (the service answered ${reason.code}). Switching the workspace to Slack's external upload protocol fixes this: change its protocol to "external" in Settings, then send the file again.`,
  };
}

const external: UploadProtocol = {
  commentOnFirstOnly: false,
  send(job, hooks, ctx, { item }) {
    const ahead = ctx.tickets.take(item.id);
    return uploadExternal(job, {
      ...attemptOptions(hooks, ctx),
      ...(ahead ? { uploadTicket: ahead } : {}),
      stepOneGate: ctx.tickets.gate(item.shareId),
      ...(hooks.resume !== undefined ? { resume: hooks.resume } : {}),
      checkpoint: hooks.checkpoint,
      onLinksUnavailable: ctx.onLinksUnavailable,
      ...(hooks.awaitShare ? { awaitShare: hooks.awaitShare } : {}),
      ...(ctx.retry ? { retry: ctx.retry } : {}),
    });
  },
  complete(jobs, hooks, ctx) {
    const uploaded = hooks.resumes.map(asExternalCheckpoint);
    if (uploaded.some((cp) => cp === undefined)) {
      throw new Error('A file of the share has no upload to complete.');
    }
    return completeExternalShare(jobs, uploaded as ExternalCheckpoint[], {
      transport: ctx.transport,
      signal: hooks.signal,
      beforeBodyComplete: hooks.beforeBodyComplete,
      saveAll: hooks.checkpoint,
      withComment: hooks.withComment,
      onLinksUnavailable: ctx.onLinksUnavailable,
      ...(ctx.connectTimeoutMs !== undefined ? { connectTimeoutMs: ctx.connectTimeoutMs } : {}),
      ...(ctx.idleTimeoutMs !== undefined ? { idleTimeoutMs: ctx.idleTimeoutMs } : {}),
      ...(ctx.retry ? { retry: ctx.retry } : {}),
    });
  },
};

const PROTOCOLS: Record<Protocol, UploadProtocol> = {
  'files.upload': filesUpload,
  external,
};

export function protocolOf(workspace: { protocol?: Protocol }): UploadProtocol {
  return PROTOCOLS[workspace.protocol ?? 'files.upload'];
}

export function openDelivery(
  deps: DeliveryDeps,
): Required<Pick<QueueDeps, 'runAttempt' | 'completeShare' | 'prepare'>> {
  const tickets = new UploadTickets();
  const context = (workspaceId: string): ProtocolContext => ({
    tickets,
    transport: deps.transport,
    connectTimeoutMs: deps.connectTimeoutMs,
    idleTimeoutMs: deps.idleTimeoutMs,
    ...(deps.retry ? { retry: deps.retry } : {}),
    // Links need files:read; said once per workspace while the app runs.
    onLinksUnavailable: () => deps.notices.say({ workspaceId, message: LINKS_NEED_FILES_READ }),
  });
  const named = (result: AttemptResult, item: Parameters<typeof nameRefusedChannels>[1]) =>
    nameRefusedChannels(result, item, deps.conversations, deps.people);
  // The workspace each attempt under way started with, by item id: a handed-over file's attempt
  // is still under way while its share completes.
  const startedWith = new Map<string, Workspace>();
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
      startedWith.set(item.id, as.workspace);
      try {
        return named(await (signedIn ? retriedAfterRenewal(deps, as, send) : send(as.token)), item);
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
