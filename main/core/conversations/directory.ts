// The channel list and the people list of each workspace, cached on disk and fetched with the
// workspace's token; and the name History shows for a destination, from those lists.

import { join } from 'node:path';
import { personName } from '../../portable/people-names';
import type { AppService } from '../api';
import type { Workspace } from '../model';
import { RefusedError } from '../refused-error';
import { RenewalError } from '../renewal-error';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import { listConversations } from './conversations-list';
import { ConversationCache, PeopleCache, withPeople } from './named-lists';
import { listUsers } from './users-list';

export interface Directory {
  conversations: ConversationCache;
  people: PeopleCache;
}

export function openDirectory(deps: {
  stateDir: string;
  settings: Pick<SettingsService, 'workspace'>;
  token(workspace: Workspace): Promise<string | null>;
  transport: Transport;
  /** How long a fetch may wait out the service's Retry-After; 0 keeps the list it has. */
  listMaxWaitMs: number;
}): Directory {
  const withToken =
    <T>(
      list: (
        baseUrl: string,
        token: string,
        transport: Transport,
        opts: { signal: AbortSignal; maxWaitMs: number },
      ) => Promise<T>,
    ) =>
    async (workspaceId: string, signal: AbortSignal) => {
      const workspace = deps.settings.workspace(workspaceId);
      let token: string | null;
      try {
        token = workspace ? await deps.token(workspace) : null;
      } catch (error) {
        // A signed-in workspace whose token could not be renewed: the list says why.
        if (!(error instanceof RenewalError)) throw error;
        return { ok: false as const, code: 'other' as const, message: error.reason.message };
      }
      if (!workspace || !token) {
        return {
          ok: false as const,
          code: 'other' as const,
          message: 'No token saved for this workspace.',
        };
      }
      return list(workspace.baseUrl, token, deps.transport, {
        signal,
        maxWaitMs: deps.listMaxWaitMs,
      });
    };
  return {
    conversations: new ConversationCache({
      dir: join(deps.stateDir, 'conversations'),
      fetch: withToken(listConversations),
    }),
    people: new PeopleCache({ dir: join(deps.stateDir, 'people'), fetch: withToken(listUsers) }),
  };
}

/** A workspace's lists answered for its old token or address: both are asked again. */
export function forgetLists({ conversations, people }: Directory, workspaceId: string): void {
  conversations.forget(workspaceId);
  people.forget(workspaceId);
}

/** The names History shows: the workspace's, and each destination's from the cached lists. */
export function historyNames(
  settings: Pick<SettingsService, 'workspace'>,
  directory: Directory,
): {
  workspaceName: (id: string) => string;
  channelName: (workspaceId: string, channelId: string) => string | undefined;
} {
  return {
    workspaceName: (id) => settings.workspace(id)?.name ?? id,
    channelName: destinationName(directory),
  };
}

/** A DM, or a person shared with by user ID, is named by the person's name. */
function destinationName({
  conversations,
  people,
}: Directory): (workspaceId: string, channelId: string) => string | undefined {
  return (workspaceId, channelId) => {
    const conv = conversations.cached(workspaceId)?.find((c) => c.id === channelId);
    const person = people
      .cached(workspaceId)
      ?.find((who) => who.id === (conv?.kind === 'dm' ? (conv.user ?? conv.name) : channelId));
    return person ? personName(person) : conv?.name;
  };
}

/** listConversations: a workspace's conversations with its people, refused once it is gone. */
export function destinations(
  { conversations, people }: Directory,
  settings: Pick<SettingsService, 'workspace'>,
): AppService['listConversations'] {
  return async (workspaceId, query) => {
    if (!settings.workspace(workspaceId)) {
      throw new RefusedError('That workspace no longer exists.');
    }
    const [view, folks] = await Promise.all([
      conversations.get(workspaceId, query),
      people.get(workspaceId, query),
    ]);
    return withPeople(view, folks);
  };
}
