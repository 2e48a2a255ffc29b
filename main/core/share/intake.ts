// Intake: what a person asked for becomes a share the queue can run, or is refused while they
// still have the files selected. It checks the target, the thread link, the channel and people
// names and the token; nothing is queued that could only wait. A queued item's new destination
// (changeDestination) is resolved the same way. The core API's share methods are here too: a
// share is intake, then the queue.

import { normaliseChannels } from '../../portable/channels';
import { checkBaseUrl, checkToken } from '../../portable/credentials';
import { destinationLabels, looksLikeUserId, threadDestination } from '../../portable/people-names';
import type { AppService, ShareRequest } from '../api';
import { looksLikeId, resolveChannelNames } from '../conversations/channel-names';
import type { ConversationCache, PeopleCache } from '../conversations/named-lists';
import { parseThread } from '../conversations/thread-link';
import { protocolOf } from '../delivery/protocols';
import type { Workspace } from '../model';
import type { EnqueueRequest } from '../queue/queue-api';
import { refusedTogether, sendToOthers } from '../queue/send-to-others';
import type { UploadQueue } from '../queue/upload-queue';
import { RefusedError } from '../refused-error';
import { RenewalError } from '../renewal-error';
import { KeychainError } from '../secrets/secret-store';
import { DEFAULT_MAX_FILE_BYTES } from '../settings/defaults';
import type { SettingsService } from '../settings/settings-service';
import { presetDestination } from '../settings/target';

export interface IntakeDeps {
  settings: Pick<SettingsService, 'workspace' | 'preset' | 'preferences'>;
  token(workspace: Workspace): Promise<string | null>;
  conversations: ConversationCache;
  people: PeopleCache;
}

export interface Intake {
  /** The share to queue; throws RefusedError saying what to fix. */
  take(request: ShareRequest): Promise<EnqueueRequest>;
  /** A queued item's new channels, as IDs; throws RefusedError. */
  destination(workspaceId: string, channels: string[], threadTs?: string): Promise<string[]>;
}

export function openIntake(deps: IntakeDeps): Intake {
  return {
    take: (request) => take(deps, request),
    destination: (workspaceId, channels, threadTs) =>
      destination(deps, workspaceId, channels, threadTs),
  };
}

/**
 * Names become IDs and known non-members are refused, from the cached list: a share never
 * waits for the service unless it names a channel and no list was ever fetched, and a share
 * by IDs never fetches the list at all.
 */
async function resolveDestination(
  { conversations, people, settings }: IntakeDeps,
  workspaceId: string,
  entries: string[],
): Promise<string[]> {
  const needsList = entries.some((e) => !looksLikeId(e));
  let view = await conversations.get(workspaceId, { cachedOnly: !needsList });
  if (needsList && !view.conversations) view = await conversations.get(workspaceId, { wait: true });
  // `@name` needs the people; a typed user ID never waits for them.
  const needsPeople = entries.some((e) => e.startsWith('@') && !looksLikeId(e.slice(1)));
  let folks = needsPeople ? await people.get(workspaceId) : undefined;
  if (folks && !folks.people) folks = await people.get(workspaceId, { wait: true });
  const resolved = resolveChannelNames(
    entries,
    view.conversations,
    view.unlisted,
    folks ? { people: folks.people, problem: folks.problem?.message } : undefined,
    settings.workspace(workspaceId)?.auth === 'slack',
  );
  if (!resolved.ok) throw new RefusedError(resolved.error);
  return resolved.ids;
}

/** A reply to a person goes to their DM: channel_id, which replies use, takes no user ID. */
async function replyDestination(
  { conversations }: IntakeDeps,
  workspaceId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length !== 1 || !looksLikeUserId(ids[0]!)) return ids;
  const dm = threadDestination(ids[0]!, (await conversations.get(workspaceId)).conversations);
  if (!dm) {
    throw new RefusedError(
      'A reply in a thread with a person goes to your DM with them, and the channel list shows no DM with them yet: share without the thread, or choose the DM.',
    );
  }
  return [dm];
}

function target(
  deps: IntakeDeps,
  request: ShareRequest,
): {
  workspace: Workspace;
  channels: string[];
  comment: string | undefined;
} {
  let workspaceId: string;
  let channels: string[];
  let comment = request.comment;
  if ('presetId' in request.target) {
    const preset = deps.settings.preset(request.target.presetId);
    if (!preset) throw new RefusedError('That preset no longer exists.');
    workspaceId = preset.workspaceId;
    const saved = presetDestination(preset);
    channels = saved.channels;
    comment ??= saved.comment;
  } else {
    workspaceId = request.target.workspaceId;
    channels = request.target.channels;
  }
  const workspace = deps.settings.workspace(workspaceId);
  if (!workspace) throw new RefusedError('That workspace no longer exists.');
  return { workspace, channels, comment };
}

/** Refused now rather than queued as items that can only wait: the token can be added first. */
async function requireToken(deps: IntakeDeps, workspace: Workspace): Promise<void> {
  let token: string | null;
  try {
    token = await deps.token(workspace);
  } catch (error) {
    if (error instanceof KeychainError) throw new RefusedError(error.message, { cause: error });
    // A run-out sign-in is refused like a missing token ("sign in again"); a renewal that only
    // could not reach the service now is tried again when the files are sent.
    if (error instanceof RenewalError) {
      if (error.reason.class === 'credential') {
        throw new RefusedError(error.reason.message, { cause: error });
      }
      return;
    }
    throw error;
  }
  const tokenCheck = checkToken(token);
  if (!tokenCheck.ok) {
    throw new RefusedError(`${workspace.name}: ${tokenCheck.message}`);
  }
}

async function take(deps: IntakeDeps, request: ShareRequest): Promise<EnqueueRequest> {
  const { workspace, comment, ...asked } = target(deps, request);
  let channels = asked.channels;
  const thread = request.thread?.trim() ? parseThread(request.thread) : undefined;
  if (thread && !thread.ok) throw new RefusedError(thread.error);
  // A message link names its channel: it is the destination when none is given.
  if (thread?.channel && channels.every((c) => c.trim() === '')) channels = [thread.channel];
  const normalised = normaliseChannels(channels);
  if (!normalised.ok) throw new RefusedError(normalised.error);
  const base = checkBaseUrl(workspace.baseUrl);
  if (!base.ok) throw new RefusedError(base.message);
  let ids = await resolveDestination(deps, workspace.id, normalised.channels);
  if (thread?.ok) ids = await replyDestination(deps, workspace.id, ids);
  if (thread?.ok) {
    if (ids.length !== 1 || (thread.channel !== undefined && ids[0] !== thread.channel)) {
      throw new RefusedError(
        thread.channel
          ? `A reply in a thread goes to that thread's channel only (${thread.channel}); choose just that channel, or share without the thread.`
          : 'A reply in a thread goes to one channel: choose just one, or share without the thread.',
      );
    }
  }
  await requireToken(deps, workspace);
  return {
    workspaceId: workspace.id,
    channels: ids,
    comment: comment ?? '',
    paths: request.paths,
    ...(thread?.ok ? { threadTs: thread.ts } : {}),
    // files.upload makes one message per file: the comment goes with the first only. The
    // external protocol shares the files together, each message with the one comment.
    commentOnFirstOnly: protocolOf(workspace).commentOnFirstOnly,
    // The limit as the share's one read of the settings found it (the queue need not read again).
    maxFileBytes: workspace.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    workspaceName: workspace.name,
    // Hidden details stay home unless this share or the preference says to keep them.
    stripMetadata: !(request.keepMetadata ?? deps.settings.preferences().keepMetadata),
    ...labelsOf(deps, workspace.id, ids),
  };
}

/**
 * How the destination reads now (`#general`, `@bob`), from the lists already cached, never
 * fetching: kept with the share, its names outlive the workspace and its lists.
 */
function labelsOf(
  { conversations, people }: IntakeDeps,
  workspaceId: string,
  ids: readonly string[],
): { labels?: Record<string, string> } {
  const known = destinationLabels(conversations.cached(workspaceId), people.cached(workspaceId));
  const labels: Record<string, string> = {};
  for (const id of ids) {
    const label = known.get(id);
    if (label) labels[id] = label;
  }
  return Object.keys(labels).length > 0 ? { labels } : {};
}

async function destination(
  deps: IntakeDeps,
  workspaceId: string,
  channels: string[],
  threadTs?: string,
): Promise<string[]> {
  const normalised = normaliseChannels(channels);
  if (!normalised.ok) throw new RefusedError(normalised.error);
  let ids = await resolveDestination(deps, workspaceId, normalised.channels);
  if (threadTs) ids = await replyDestination(deps, workspaceId, ids);
  if (threadTs && ids.length !== 1) {
    throw new RefusedError('A reply in a thread goes to one channel: choose just one.');
  }
  return ids;
}

/** A share: intake, then the queue; and what the person asks of its files afterwards. */
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
