// What delivery says when a file cannot go, or went and was refused: its workspace is gone
// (removed, or lost with a damaged settings file), the keychain failed, the service no longer
// offers files.upload, or some of a share's channels refused it. Only a file that did not go
// comes here: a delivered one never does.
import { destinationLabels, looksLikeUserId } from '../../portable/people-names';
import type { ConversationCache, PeopleCache } from '../conversations/named-lists';
import type { FailureReason, QueueItem, Workspace } from '../model';
import type { KeychainError } from '../secrets/secret-store';
import { keptCopiesSince } from '../settings/settings-file';
import type { WorkspaceNow } from '../settings/settings-service';
import type { AttemptResult } from '../upload/attempt';

export function keychainFailure(error: KeychainError): FailureReason {
  // A keychain problem stops this workspace's queue like a refused token would: the items
  // wait, nothing is lost, and the person is told what to fix.
  return { class: 'credential', code: `keychain_${error.problem}`, message: error.message };
}

export function workspaceGone(dataDir: string, item: QueueItem): AttemptResult {
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

/**
 * files.upload is gone from this service. `class: 'retired'` with the service's own code is the
 * marker the UI acts on: it offers to switch the workspace to the external protocol
 * (updateWorkspace(id, { protocol: 'external' })) and to send the item again (retryItem).
 */
export function retiredReason(workspace: Workspace, reason: FailureReason): FailureReason {
  return {
    ...reason,
    message: `${workspace.name} no longer offers files.upload (the service answered ${reason.code}). Switching the workspace to Slack's external upload protocol fixes this: change its protocol to "external" in Settings, then send the file again.`,
  };
}

// Which channels of a share refused it, when the service's answer does not say.
const REFUSED_BY_CHANNEL = new Set(['not_in_channel', 'channel_not_found']);

/**
 * The service names no channel in not_in_channel / channel_not_found. On a share to several
 * channels, a fresh channel list tells which ones: not listed, or listed without the app; a
 * share to one channel was refused by it. The reason names them as people read them (the
 * share's own names, then the list's) and says what can be done by whoever sends: a person
 * signed in with Slack joins the channel; an app (a token) is invited to it.
 */
export async function nameRefusedChannels(
  result: AttemptResult,
  item: QueueItem,
  lists: {
    conversations: ConversationCache;
    people: PeopleCache;
    settings: Pick<WorkspaceNow, 'workspace'>;
  },
): Promise<AttemptResult> {
  if (result.kind !== 'failed' || !REFUSED_BY_CHANNEL.has(result.reason.code)) return result;
  const signedIn = lists.settings.workspace(item.workspaceId)?.auth === 'slack';
  const several = item.channels.length > 1;
  const list = several
    ? (await lists.conversations.get(item.workspaceId, { refresh: true, wait: true })).conversations
    : lists.conversations.cached(item.workspaceId);
  // Several channels and no list: which of them refused is not known.
  if (several && !list) return result;
  // A user ID is never listed: the service opens the DM with that person.
  const refused = several
    ? item.channels.filter((id) => {
        const c = list?.find((conv) => conv.id === id);
        return !c?.isMember && !looksLikeUserId(id);
      })
    : [...item.channels];
  if (refused.length === 0) return result;
  const known = destinationLabels(list, lists.people.cached(item.workspaceId));
  const label = (id: string) => known.get(id) ?? item.labels?.[id] ?? id;
  const others = item.channels.filter((c) => !refused.includes(c)).map(label);
  const partly = others.length > 0;
  return {
    kind: 'failed',
    reason: {
      ...result.reason,
      ...(partly ? { refusedChannels: refused } : {}),
      message: refusalWords(result.reason, refused, label, others, signedIn),
    },
  };
}

/** "Not shared: #secret-plans refused it (invite the app first). Send to the others (#general)…" */
function refusalWords(
  reason: FailureReason,
  refused: readonly string[],
  label: (id: string) => string,
  others: readonly string[],
  signedIn: boolean,
): string {
  // An app's refusal of the whole share keeps the service's own sentence, with names for IDs.
  if (!signedIn && others.length === 0) {
    return refused.reduce((text, id) => text.replaceAll(id, label(id)), reason.message);
  }
  const names = refused.map(label).join(', ');
  const notFound = reason.code === 'channel_not_found';
  const why = signedIn
    ? notFound
      ? `${names} ${refused.length === 1 ? 'is not a channel' : 'are not channels'} you can see`
      : `you are not in ${names}`
    : `${names} refused it (${notFound ? 'no such channel for this token' : 'invite the app first'})`;
  const fix = signedIn && !notFound ? `Join ${names} in Slack, or ` : '';
  const rest =
    others.length > 0
      ? `${fix ? `${fix}send` : 'Send'} to the others (${others.join(', ')}), or change the destination.`
      : `${fix || 'Check the name in Slack, or '}choose another channel.`;
  return `Not shared: ${why}. ${rest}`;
}
