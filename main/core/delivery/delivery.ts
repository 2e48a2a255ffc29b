// Delivery: one attempt at one queued file, and one completion of a share's files; what the
// queue runs, and nothing else. It reads the workspace and token when the attempt starts (the
// person may have changed either since the file was queued), picks the workspace's protocol,
// and names the channels that refused a share.
// Both ways of delivering a file implement one interface, UploadProtocol: files.upload (one
// request per file, one message each) and Slack's external upload protocol (each file's bytes
// on their own, then the files of a share completed together as one message). Delivery picks a
// protocol once instead of branching on it at every step. What it says when a file cannot go or
// was refused is refusals.ts; the one retry after an expired sign-in is expired-token.ts.
import type { ConversationCache, PeopleCache } from '../conversations/named-lists';
import type { Protocol, QueueItem, Workspace } from '../model';
import type { OnceNotices } from '../once-notices';
import type { AttemptHooks, QueueDeps, ShareHooks } from '../queue/queue-api';
import { RenewalError } from '../renewal-error';
import { KeychainError } from '../secrets/secret-store';
import type { SettingsService, WorkspaceNow } from '../settings/settings-service';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import { uploadOnce } from '../upload/engine';
import { completeExternalShare } from '../upload/external/complete';
import { type Gate, gate } from '../upload/external/gate';
import {
  asExternalCheckpoint,
  DEFAULT_UPLOAD_TTL_MS,
  type ExternalCheckpoint,
  STEP_ONE_IN_FLIGHT,
  type UploadTicket,
} from '../upload/external/request';
import { askAhead, uploadExternal } from '../upload/external/send-file';
import { LINKS_NEED_FILES_READ } from '../upload/file-links';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retriedAfterRenewal } from './expired-token';
import { keychainFailure, nameRefusedChannels, retiredReason, workspaceGone } from './refusals';

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
 * renewed before it expires (auth/renewal.ts, handed in by the composition root).
 */
export function tokenLookup(
  settings: Pick<SettingsService, 'token'>,
  override: string | undefined,
  renewal?: { accessToken(workspace: Workspace): Promise<string | null> },
): (workspace: Workspace) => Promise<string | null> {
  return async (workspace) => {
    if (override) return override;
    // A pasted token is read as it always was: only a signed-in workspace's can be renewed.
    return renewal && workspace.auth === 'slack'
      ? renewal.accessToken(workspace)
      : settings.token(workspace);
  };
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

/** What a protocol needs besides the job: how to reach the service, and what to say once. */
interface ProtocolContext {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  shareCheckWindowMs?: number;
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
      ...(ctx.shareCheckWindowMs !== undefined
        ? { shareCheckWindowMs: ctx.shareCheckWindowMs }
        : {}),
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
      ...(ctx.shareCheckWindowMs !== undefined
        ? { shareCheckWindowMs: ctx.shareCheckWindowMs }
        : {}),
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

// Upload addresses (the external protocol's step 1) asked for while a share's files wait for a
// byte slot in the queue. The concurrency setting bounds the byte uploads, what uses the
// person's bandwidth; step 1 is a small API request, so a share asks for its waiting files'
// addresses at once, at most STEP_ONE_IN_FLIGHT open (its files' own step-1 requests go through
// the same gate), and each file's bytes go as soon as the queue gives it a slot.
//
// Kept in memory only: step 1 shares nothing, so an address lost in a crash or a restart costs
// one new step 1 (the service discards an address never completed), and an upload address,
// which lets anyone holding it send bytes, never reaches the journal. The file stays "queued"
// ("waiting for a free slot") until its slot comes: nothing of it is sent before.
type Asked = UploadTicket | AttemptResult | undefined;

/** After an ask ahead failed, the share's files ask in their own slots for this long. */
const STOP_AFTER_FAILURE_MS = 60_000;

class UploadTickets {
  private readonly byItem = new Map<string, { asked: Promise<Asked>; since: number }>();
  private readonly gates = new Map<string, Gate>();
  private readonly stopped = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The share's step-1 gate, looked up at each call: a gate is forgotten once nothing runs or
   * waits in it, and a holder of the old one must not open a second gate beside a new one.
   */
  gate(shareId: string): <T>(work: () => Promise<T>) => Promise<T> {
    return (work) => {
      let g = this.gates.get(shareId);
      if (!g) {
        g = gate(STEP_ONE_IN_FLIGHT);
        this.gates.set(shareId, g);
      }
      const mine = g;
      return mine(work).finally(() => {
        if (mine.busy() === 0 && this.gates.get(shareId) === mine) this.gates.delete(shareId);
      });
    };
  }

  /**
   * Asks ahead for a waiting item, once: `ask` runs step 1 through the share's gate. A failed
   * ask is the item's step-1 answer (its attempt reports it, so the queue's failure rules
   * apply), and the share's other files stop asking ahead for a while.
   */
  ahead(
    item: QueueItem,
    ask: (stepOneGate: <T>(work: () => Promise<T>) => Promise<T>) => Promise<Asked>,
  ): void {
    if (this.byItem.has(item.id)) return;
    const now = this.now();
    this.sweep(now);
    if ((this.stopped.get(item.shareId) ?? 0) > now) return;
    const asked = ask(this.gate(item.shareId)).then(
      (result) => {
        if (result !== undefined && 'kind' in result && result.kind !== 'cancelled') {
          this.stopped.set(item.shareId, this.now() + STOP_AFTER_FAILURE_MS);
        }
        return result;
      },
      () => undefined,
    );
    this.byItem.set(item.id, { asked, since: now });
  }

  /** What was asked ahead for this item, taken once (undefined: nothing was). */
  take(itemId: string): (() => Promise<Asked>) | undefined {
    const entry = this.byItem.get(itemId);
    if (!entry) return undefined;
    this.byItem.delete(itemId);
    let taken = false;
    return () => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      return entry.asked;
    };
  }

  /** Items cancelled or gone while they waited leave their address; it is of no use past the TTL. */
  private sweep(now: number): void {
    for (const [id, entry] of this.byItem) {
      if (now - entry.since > DEFAULT_UPLOAD_TTL_MS) this.byItem.delete(id);
    }
    for (const [shareId, until] of this.stopped) if (until <= now) this.stopped.delete(shareId);
  }
}
