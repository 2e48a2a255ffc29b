// The core app service: one object whose methods are the IPC contract's core methods. The
// Electron layer binds it to ipcMain, the browser harness to a local transport, the CLI calls
// it directly. It composes settings, the keychain, the durable queue, history and the engine.
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  AppService,
  CoreEvents,
  ShareRequest,
  ShareResult,
  Snapshot,
  TokenSaved,
} from './api';
import { looksLikeId, resolveChannelNames } from './conversations/channel-names';
import { ConversationCache } from './conversations/conversation-cache';
import { listConversations } from './conversations/conversations-list';
import { PeopleCache, withPeople } from './conversations/people-cache';
import {
  destinationLabels,
  looksLikeUserId,
  personName,
  threadDestination,
} from './conversations/people-names';
import { parseThread } from './conversations/thread-link';
import { listUsers } from './conversations/users-list';
import { type HistoryStore, openHistoryStore } from './history/history-store';
import type { FailureReason, QueueItem, Workspace } from './model';
import { OnceNotices } from './once-notices';
import { openPastedImages, type PastedImages } from './pasted-images';
import { describePaths } from './queue/file-checks';
import { uploadJobFor } from './queue/upload-job';
import {
  type AttemptHooks,
  openUploadQueue,
  type ShareHooks,
  type UploadQueue,
} from './queue/upload-queue';
import { KeychainError, type SecretStore } from './secrets/secret-store';
import { DEFAULT_MAX_FILE_BYTES } from './settings/schema';
import { keptCopiesSince } from './settings/settings-file';
import {
  openSettingsService,
  type SettingsService,
  type StoreFactory,
} from './settings/settings-service';
import { checkAndSaveToken } from './settings/token-save';
import { ShareRefusedError } from './share-refused-error';
import type { AttemptResult } from './upload/attempt';
import { normaliseChannels } from './upload/channels';
import { checkBaseUrl, checkToken } from './upload/credentials';
import { uploadOnce } from './upload/engine';
import { SERVICE_ERRORS } from './upload/error-messages';
import { asExternalCheckpoint, type ExternalCheckpoint } from './upload/external/checkpoint';
import { completeExternalShare } from './upload/external/complete';
import { uploadExternal } from './upload/external/send-file';
import { LINKS_NEED_FILES_READ } from './upload/file-links';
import { probeProtocol } from './upload/protocol-probe';
import type { RetryPolicy } from './upload/retry';
import type { Transport } from './upload/transport';

export interface AppServiceDeps {
  /** The user-data folder: settings file, and the state folder below. */
  dataDir: string;
  /**
   * Folder name for this process's queue journal and history, below dataDir. The app uses
   * "state", the CLI "cli-state", so the CLI works while the app runs; each journal has one
   * scheduler at a time (the queue's lock refuses a second one).
   */
  stateName?: string;
  secrets: SecretStore;
  transport: Transport;
  storeFactory?: StoreFactory;
  /** A token that wins over the keychain (the CLI's TRAYSHARE_TOKEN, for scripts). */
  tokenOverride?: string;
  /** Watch the settings file for changes made by another process (the app, for the CLI's edits). */
  watchSettings?: boolean;
  retry?: Partial<RetryPolicy>;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /**
   * How long a fetch of the channel list may wait out the service's Retry-After (the CLI's
   * --max-wait). 0, the default: the app keeps the list it has and asks again later.
   */
  listMaxWaitMs?: number;
}

function keychainFailure(error: KeychainError): FailureReason {
  // A keychain problem stops this workspace's queue like a refused token would: the items
  // wait, nothing is lost, and the person is told what to fix.
  return { class: 'credential', code: `keychain_${error.problem}`, message: error.message };
}

export async function createAppService(deps: AppServiceDeps): Promise<AppService> {
  const stateDir = join(deps.dataDir, deps.stateName ?? 'state');
  await mkdir(stateDir, { recursive: true });
  // The tray's pause outlives a restart: the queue must not start sending before it is applied.
  const pauseMarker = join(stateDir, 'paused');
  const startPaused = await access(pauseMarker).then(
    () => true,
    () => false,
  );

  let queue: UploadQueue | undefined;
  const notices = new OnceNotices();
  let conversations: ConversationCache | undefined;
  let people: PeopleCache | undefined;
  let history: HistoryStore | undefined;
  let settings: SettingsService | undefined;
  try {
    settings = openSettingsService({
      dir: deps.dataDir,
      secrets: deps.secrets,
      transport: deps.transport,
      storeFactory: deps.storeFactory,
      paused: () => queue?.paused() ?? false,
      watch: deps.watchSettings ?? false,
    });
    const s = settings;
    conversations = new ConversationCache({
      dir: join(stateDir, 'conversations'),
      fetch: async (workspaceId, signal) => {
        const workspace = s.workspace(workspaceId);
        const token = workspace ? await tokenFor(s, deps, workspace) : null;
        if (!workspace || !token) {
          return { ok: false, code: 'other', message: 'No token saved for this workspace.' };
        }
        return listConversations(workspace.baseUrl, token, deps.transport, {
          signal,
          maxWaitMs: deps.listMaxWaitMs ?? 0,
        });
      },
    });
    people = new PeopleCache({
      dir: join(stateDir, 'people'),
      fetch: async (workspaceId, signal) => {
        const workspace = s.workspace(workspaceId);
        const token = workspace ? await tokenFor(s, deps, workspace) : null;
        if (!workspace || !token) {
          return { ok: false, code: 'other', message: 'No token saved for this workspace.' };
        }
        return listUsers(workspace.baseUrl, token, deps.transport, {
          signal,
          maxWaitMs: deps.listMaxWaitMs ?? 0,
        });
      },
    });
    const c = conversations;
    const p = people;
    history = await openHistoryStore({
      dir: join(stateDir, 'history'),
      workspaceName: (id: string) => s.workspace(id)?.name ?? id,
      channelName: (workspaceId, channelId) => {
        const conv = c.cached(workspaceId)?.find((conv) => conv.id === channelId);
        // A DM, or a person shared with by user ID, is found by the person's name.
        const person = p
          .cached(workspaceId)
          ?.find((who) => who.id === (conv?.kind === 'dm' ? (conv.user ?? conv.name) : channelId));
        return person ? personName(person) : conv?.name;
      },
    });
    queue = await openUploadQueue({
      dir: join(stateDir, 'queue'),
      history,
      concurrency: () => s.preferences().concurrency,
      maxFileBytes: (workspaceId) => s.workspace(workspaceId)?.maxFileBytes ?? 1024 ** 3,
      retry: deps.retry,
      startPaused,
      runAttempt: async (item, opts) =>
        nameRefusedChannels(await runAttempt(s, deps, item, opts, notices), item, c, p),
      completeShare: async (items, hooks) => {
        const results = await completeShare(s, deps, items, hooks, notices);
        return Promise.all(results.map((r, i) => nameRefusedChannels(r, items[i]!, c, p)));
      },
    });
  } catch (error) {
    settings?.close();
    await conversations?.close();
    await people?.close();
    await queue?.close();
    await history?.close();
    throw error;
  }
  const pasted = openPastedImages(join(stateDir, 'pasted'));
  await pasted.sweep(queue.list());
  const setPaused = async (paused: boolean) => {
    if (paused) await writeFile(pauseMarker, '');
    else await rm(pauseMarker, { force: true });
  };
  return bindService(
    settings,
    queue,
    history,
    deps,
    setPaused,
    { conversations, people },
    pasted,
    notices,
  );
}

async function tokenFor(
  settings: SettingsService,
  deps: AppServiceDeps,
  workspace: Workspace,
): Promise<string | null> {
  if (deps.tokenOverride) return deps.tokenOverride;
  return settings.token(workspace.id);
}

/** The workspace and token an item goes with, or why it cannot go now. */
async function sendingAs(
  settings: SettingsService,
  deps: AppServiceDeps,
  item: QueueItem,
): Promise<{ workspace: Workspace; token: string } | AttemptResult> {
  const workspace = settings.workspace(item.workspaceId);
  if (!workspace) {
    // Not removed by the person but lost with a broken settings file set aside after the file
    // was queued: the upload waits (nothing is lost) until the workspace is back or it is
    // cancelled.
    const kept = keptCopiesSince(deps.dataDir, item.createdAt)[0];
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
  let token: string | null;
  try {
    token = await tokenFor(settings, deps, workspace);
  } catch (error) {
    if (error instanceof KeychainError) return { kind: 'failed', reason: keychainFailure(error) };
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

/**
 * Files of one share whose bytes are on the service, shared as one message. Done through the
 * external protocol whatever the workspace says now: the bytes went that way.
 */
/** Links need files:read; said once per workspace while the app runs. */
function linksUnavailable(notices: OnceNotices, workspaceId: string): () => void {
  return () => notices.say({ workspaceId, message: LINKS_NEED_FILES_READ });
}

async function completeShare(
  settings: SettingsService,
  deps: AppServiceDeps,
  items: QueueItem[],
  hooks: ShareHooks,
  notices: OnceNotices,
): Promise<AttemptResult[]> {
  const as = await sendingAs(settings, deps, items[0]!);
  if ('kind' in as) return items.map(() => as);
  const uploaded = hooks.resumes.map(asExternalCheckpoint);
  if (uploaded.some((cp) => cp === undefined)) {
    throw new Error('A file of the share has no upload to complete.');
  }
  return completeExternalShare(
    items.map((item) => uploadJobFor(item, as.workspace.baseUrl, as.token)),
    uploaded as ExternalCheckpoint[],
    {
      transport: deps.transport,
      signal: hooks.signal,
      beforeBodyComplete: hooks.beforeBodyComplete,
      saveAll: hooks.checkpoint,
      withComment: hooks.withComment,
      onLinksUnavailable: linksUnavailable(notices, as.workspace.id),
      ...(deps.connectTimeoutMs !== undefined ? { connectTimeoutMs: deps.connectTimeoutMs } : {}),
      ...(deps.idleTimeoutMs !== undefined ? { idleTimeoutMs: deps.idleTimeoutMs } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
    },
  );
}

async function runAttempt(
  settings: SettingsService,
  deps: AppServiceDeps,
  item: QueueItem,
  opts: AttemptHooks,
  notices: OnceNotices,
): Promise<AttemptResult> {
  const as = await sendingAs(settings, deps, item);
  if ('kind' in as) return as;
  const { workspace, token } = as;
  const job = uploadJobFor(item, workspace.baseUrl, token);
  const common = {
    transport: deps.transport,
    signal: opts.signal,
    onProgress: (sent: number) => opts.onProgress(sent),
    beforeBodyComplete: opts.beforeBodyComplete,
    connectTimeoutMs: deps.connectTimeoutMs,
    idleTimeoutMs: deps.idleTimeoutMs,
  };
  if (workspace.protocol === 'external') {
    return uploadExternal(job, {
      ...common,
      ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
      checkpoint: opts.checkpoint,
      onLinksUnavailable: linksUnavailable(notices, workspace.id),
      ...(opts.awaitShare ? { awaitShare: opts.awaitShare } : {}),
      ...(deps.retry ? { retry: deps.retry } : {}),
    });
  }
  if (asExternalCheckpoint(opts.resume)?.completing) {
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
  const result = await uploadOnce(job, common);
  if (result.kind === 'failed' && result.reason.class === 'retired') {
    return { kind: 'failed', reason: retiredReason(workspace, result.reason) };
  }
  return result;
}

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

function bindService(
  settings: SettingsService,
  queue: UploadQueue,
  history: HistoryStore,
  deps: AppServiceDeps,
  persistPause: (paused: boolean) => Promise<void>,
  { conversations, people }: { conversations: ConversationCache; people: PeopleCache },
  pasted: PastedImages,
  notices: OnceNotices,
): AppService {
  type Listener = (payload: never) => void;
  const listeners = new Map<keyof CoreEvents, Set<Listener>>();
  const emit = <E extends keyof CoreEvents>(event: E, payload: CoreEvents[E]): void => {
    for (const listener of listeners.get(event) ?? []) {
      (listener as (p: CoreEvents[E]) => void)(payload);
    }
  };
  // Tokens the service has refused since they were saved (auth.test, or an upload stopped for
  // it), so Settings shows "refused", not "saved". A keychain problem or a missing token is not
  // the service refusing one.
  const refusedByCheck = new Map<string, string>();
  const serviceRefused = (code: string) => SERVICE_ERRORS[code]?.class === 'credential';
  const refusal = (workspaceId: string): string | undefined =>
    refusedByCheck.get(workspaceId) ??
    queue
      .list()
      .find(
        (i) =>
          i.workspaceId === workspaceId &&
          i.state === 'waiting' &&
          i.error?.class === 'credential' &&
          serviceRefused(i.error.code),
      )?.error?.message;
  const snapshot = async (): Promise<Snapshot> => {
    const snap = await settings.getSnapshot();
    return {
      ...snap,
      workspaces: snap.workspaces.map((w) => {
        const why = w.hasToken ? refusal(w.id) : undefined;
        return why ? { ...w, tokenRefused: why } : w;
      }),
    };
  };
  const settingsChanged = () => {
    void snapshot().then((next) => emit('settings-changed', next));
  };

  const unsubscribers = [
    queue.onNeedsToken(() => settingsChanged()),
    queue.onChange((items) => {
      pasted.update(items);
      emit('queue-changed', items);
    }),
    queue.onFinished((item) => emit('item-finished', item)),
    queue.onNeedsToken((event) => emit('needs-token', event)),
    history.onChange(() => emit('history-changed', null)),
    settings.onChange(settingsChanged),
    notices.on((notice) => emit('notice', notice)),
  ];

  /**
   * Names become IDs and known non-members are refused, from the cached list: a share never
   * waits for the service unless it names a channel and no list was ever fetched, and a share
   * by IDs never fetches the list at all.
   */
  async function resolveDestination(workspaceId: string, entries: string[]): Promise<string[]> {
    const needsList = entries.some((e) => !looksLikeId(e));
    let view = await conversations.get(workspaceId, { cachedOnly: !needsList });
    if (needsList && !view.conversations)
      view = await conversations.get(workspaceId, { wait: true });
    // `@name` needs the people; a typed user ID never waits for them.
    const needsPeople = entries.some((e) => e.startsWith('@') && !looksLikeId(e.slice(1)));
    let folks = needsPeople ? await people.get(workspaceId) : undefined;
    if (folks && !folks.people) folks = await people.get(workspaceId, { wait: true });
    const resolved = resolveChannelNames(
      entries,
      view.conversations,
      view.unlisted,
      folks ? { people: folks.people, problem: folks.problem?.message } : undefined,
    );
    if (!resolved.ok) throw new ShareRefusedError(resolved.error);
    return resolved.ids;
  }

  /** A reply to a person goes to their DM: channel_id, which replies use, takes no user ID. */
  async function replyDestination(workspaceId: string, ids: string[]): Promise<string[]> {
    if (ids.length !== 1 || !looksLikeUserId(ids[0]!)) return ids;
    const dm = threadDestination(ids[0]!, (await conversations.get(workspaceId)).conversations);
    if (!dm) {
      throw new ShareRefusedError(
        'A reply in a thread with a person goes to your DM with them, and the channel list shows no DM with them yet: share without the thread, or choose the DM.',
      );
    }
    return [dm];
  }

  async function share(request: ShareRequest): Promise<ShareResult> {
    let workspaceId: string;
    let channels: string[];
    let comment = request.comment;
    if ('presetId' in request.target) {
      const preset = settings.preset(request.target.presetId);
      if (!preset) throw new ShareRefusedError('That preset no longer exists.');
      workspaceId = preset.workspaceId;
      channels = preset.channels.map((c) => c.id);
      comment ??= preset.comment;
    } else {
      workspaceId = request.target.workspaceId;
      channels = request.target.channels;
    }
    const workspace = settings.workspace(workspaceId);
    if (!workspace) throw new ShareRefusedError('That workspace no longer exists.');
    const thread = request.thread?.trim() ? parseThread(request.thread) : undefined;
    if (thread && !thread.ok) throw new ShareRefusedError(thread.error);
    // A message link names its channel: it is the destination when none is given.
    if (thread?.channel && channels.every((c) => c.trim() === '')) channels = [thread.channel];
    const normalised = normaliseChannels(channels);
    if (!normalised.ok) throw new ShareRefusedError(normalised.error);
    const base = checkBaseUrl(workspace.baseUrl);
    if (!base.ok) throw new ShareRefusedError(base.message);
    let ids = await resolveDestination(workspaceId, normalised.channels);
    if (thread?.ok) ids = await replyDestination(workspaceId, ids);
    if (thread?.ok) {
      if (ids.length !== 1 || (thread.channel !== undefined && ids[0] !== thread.channel)) {
        throw new ShareRefusedError(
          thread.channel
            ? `A reply in a thread goes to that thread's channel only (${thread.channel}); choose just that channel, or share without the thread.`
            : 'A reply in a thread goes to one channel: choose just one, or share without the thread.',
        );
      }
    }
    // Refuse now rather than queue items that can only wait: the person still has the files
    // selected and can add the token first.
    let token: string | null;
    try {
      token = await tokenFor(settings, deps, workspace);
    } catch (error) {
      if (error instanceof KeychainError)
        throw new ShareRefusedError(error.message, { cause: error });
      throw error;
    }
    const tokenCheck = checkToken(token);
    if (!tokenCheck.ok) {
      throw new ShareRefusedError(`${workspace.name}: ${tokenCheck.message}`);
    }
    return queue.enqueue({
      workspaceId,
      channels: ids,
      comment: comment ?? '',
      paths: request.paths,
      ...(thread?.ok ? { threadTs: thread.ts } : {}),
      // files.upload makes one message per file: the comment goes with the first only. The
      // external protocol shares the files together, each message with the one comment.
      commentOnFirstOnly: workspace.protocol !== 'external',
    });
  }

  return {
    getSnapshot: snapshot,
    addWorkspace: (input) => settings.addWorkspace(input),
    updateWorkspace: (id, patch) => settings.updateWorkspace(id, patch),
    removeWorkspace: (id) => settings.removeWorkspace(id),
    setToken: async (workspaceId, token) => {
      await settings.setToken(workspaceId, token);
      // A new token is the answer to a credential pause.
      refusedByCheck.delete(workspaceId);
      queue.resumeWorkspace(workspaceId);
      settingsChanged();
    },
    saveToken: async (workspaceId, token): Promise<TokenSaved> => {
      const workspace = settings.workspace(workspaceId);
      if (!workspace) throw new ShareRefusedError('That workspace no longer exists.');
      return checkAndSaveToken(workspace, token, {
        transport: deps.transport,
        save: async (checked) => {
          await settings.setToken(workspaceId, checked);
          refusedByCheck.delete(workspaceId);
          queue.resumeWorkspace(workspaceId);
          settingsChanged();
        },
      });
    },
    probeProtocol: (baseUrl, token) => probeProtocol(baseUrl, token, deps.transport),
    clearToken: async (workspaceId) => {
      await settings.clearToken(workspaceId);
      refusedByCheck.delete(workspaceId);
      settingsChanged();
    },
    testConnection: async (workspaceId) => {
      const check = await settings.testConnection(workspaceId);
      const before = refusedByCheck.get(workspaceId);
      if (check.refused) refusedByCheck.set(workspaceId, check.message);
      else if (check.ok) refusedByCheck.delete(workspaceId);
      if (before !== refusedByCheck.get(workspaceId)) settingsChanged();
      return check;
    },
    addPreset: (input) => settings.addPreset(input),
    updatePreset: (id, patch) => settings.updatePreset(id, patch),
    removePreset: (id) => settings.removePreset(id),
    reorderPresets: (ids) => settings.reorderPresets(ids),
    setDefaultPreset: (id) => settings.setDefaultPreset(id),
    setPreferences: async (patch) => {
      const result = await settings.setPreferences(patch);
      if (patch.concurrency !== undefined) queue.reschedule();
      return result;
    },
    checkChannels: (text) => settings.checkChannels(text),
    describePaths: ({ paths, workspaceId }) =>
      describePaths(
        paths,
        workspaceId === undefined
          ? Number.MAX_SAFE_INTEGER
          : (settings.workspace(workspaceId)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
      ),
    share,
    listQueue: async () => queue.list(),
    cancelItem: (id) => queue.cancel(id),
    retryItem: (id) => queue.retry(id),
    sendToOthers: async (id) => {
      const item = queue.list().find((i) => i.id === id);
      const refused = item?.error?.refusedChannels;
      if (item?.state !== 'failed' || !refused?.length) {
        throw new ShareRefusedError('This upload has no channels left to send to.');
      }
      const others = item.channels.filter((c) => !refused.includes(c));
      if (others.length === 0)
        throw new ShareRefusedError('Every channel of this upload refused it.');
      // The files of the share refused the same way go too: one choice for the person, and on
      // the external protocol they complete together again, as one message.
      const same = (a: readonly string[] | undefined, b: readonly string[]) =>
        a?.length === b.length && a.every((c, i) => c === b[i]);
      const share = queue
        .list()
        .filter(
          (i) =>
            i.shareId === item.shareId &&
            i.state === 'failed' &&
            same(i.channels, item.channels) &&
            same(i.error?.refusedChannels, refused),
        )
        .map((i) => i.id);
      await queue.retryTogether(share, { channels: others });
    },
    changeDestination: async (id, channels) => {
      const item = queue.list().find((i) => i.id === id);
      if (!item) throw new ShareRefusedError('That upload is no longer in the queue.');
      const normalised = normaliseChannels(channels);
      if (!normalised.ok) throw new ShareRefusedError(normalised.error);
      let ids = await resolveDestination(item.workspaceId, normalised.channels);
      if (item.threadTs) ids = await replyDestination(item.workspaceId, ids);
      if (item.threadTs && ids.length !== 1) {
        throw new ShareRefusedError('A reply in a thread goes to one channel: choose just one.');
      }
      await queue.retry(id, { channels: ids });
    },
    clearFinished: () => queue.clearFinished(),
    setPaused: async (paused) => {
      await persistPause(paused);
      queue.setPaused(paused);
      emit('settings-changed', await snapshot());
    },
    listHistory: async (query) => history.list(query),
    listConversations: async (workspaceId, query) => {
      if (!settings.workspace(workspaceId)) {
        throw new ShareRefusedError('That workspace no longer exists.');
      }
      const [view, folks] = await Promise.all([
        conversations.get(workspaceId, query),
        people.get(workspaceId, query),
      ]);
      return withPeople(view, folks);
    },
    savePastedImage: (pngBase64) => pasted.save(Buffer.from(pngBase64, 'base64')),
    savePastedBytes: (png) => pasted.save(png),
    settled: () => queue.settled(),
    repairNotices: () =>
      [settings.notice(), queue.repairNotice()].filter((n): n is string => n !== undefined),
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
    async close() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      listeners.clear();
      settings.close();
      await conversations.close();
      await people.close();
      await queue.close();
      await pasted.idle();
      await history.close();
    },
  };
}
