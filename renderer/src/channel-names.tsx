// Where a person reads a destination (queue and history rows), channels show as `#name`, not as
// the IDs the service wants. The names come from the core's cached conversation list of each
// workspace (the same list the channel picker searches), else the names the share was made with
// (kept with it, so a removed workspace's shares still read); an ID neither knows shows itself.
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { destinationLabels } from '../../main/portable/people-names';
import type { ChannelRef } from '../../preload/contract';
import { api } from './bridge';

type Names = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The names a share was made with, by ID (QueueItem.labels, HistoryEntry.labels). */
type Saved = Readonly<Record<string, string>> | undefined;

const nameOf = (id: string, names: ReadonlyMap<string, string> | undefined, saved: Saved) =>
  names?.get(id) ?? saved?.[id] ?? id;

/** "#design-review, #random and 2 more": names where known, IDs otherwise. */
function describeDestination(
  ids: readonly string[],
  names: ReadonlyMap<string, string> | undefined,
  saved: Saved,
  max = 3,
): string {
  const shown = ids.slice(0, max).map((id) => nameOf(id, names, saved));
  const more = ids.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

const ChannelNames = createContext<Names>(new Map());

async function namesOf(workspaceId: string): Promise<Map<string, string>> {
  let view = await api().listConversations(workspaceId, {});
  if (!view.conversations && view.refreshing) {
    view = await api().listConversations(workspaceId, { wait: true });
  }
  // DMs and user IDs read as their person (`@alice`) when the workspace's people are known.
  return destinationLabels(view.conversations, view.people);
}

/**
 * Loads the names of every workspace's channels, again whenever `refresh` changes (the view
 * shown), so a list the picker has just fetched shows up in the queue and history.
 */
export function ChannelNamesProvider(props: {
  workspaceIds: readonly string[];
  refresh: string;
  children: ComponentChildren;
}) {
  const [names, setNames] = useState<Names>(new Map());
  const key = [...props.workspaceIds].sort().join('\n');
  useEffect(() => {
    let live = true;
    const ids = key === '' ? [] : key.split('\n');
    void Promise.all(
      ids.map(async (id) => {
        try {
          return [id, await namesOf(id)] as const;
        } catch {
          // No list for this workspace: its rows show IDs.
          return [id, new Map<string, string>()] as const;
        }
      }),
    ).then((entries) => {
      if (live) setNames(new Map(entries));
    });
    return () => {
      live = false;
    };
  }, [key, props.refresh]);
  return <ChannelNames.Provider value={names}>{props.children}</ChannelNames.Provider>;
}

/**
 * `labels(workspaceId, ids, saved)` → ['#design-review', '@alice', 'C0PLAIN'], for
 * DestinationList; `saved` is the share's own names, for what the workspace's list lacks.
 */
export function useDestinationLabels(): (
  workspaceId: string,
  ids: readonly string[],
  saved?: Saved,
) => string[] {
  const names = useContext(ChannelNames);
  return useMemo(
    () => (workspaceId: string, ids: readonly string[], saved?: Saved) =>
      ids.map((id) => nameOf(id, names.get(workspaceId), saved)),
    [names],
  );
}

/**
 * `destination(workspaceId, ids, { saved })` → "#design-review, C0PLAIN"; longer lists end
 * "and 2 more" unless `max` allows them all.
 */
export function useDestination(): (
  workspaceId: string,
  ids: readonly string[],
  opts?: { max?: number; saved?: Saved },
) => string {
  const names = useContext(ChannelNames);
  return useMemo(
    () =>
      (workspaceId: string, ids: readonly string[], opts: { max?: number; saved?: Saved } = {}) =>
        describeDestination(ids, names.get(workspaceId), opts.saved, opts.max),
    [names],
  );
}

/**
 * `named(workspaceId, refs)`: a preset's channel refs with the names the list knows filled in
 * where the preset was saved with a bare ID, for `listChannels` and the share summary.
 */
export function useNamedRefs(): (workspaceId: string, refs: readonly ChannelRef[]) => ChannelRef[] {
  const names = useContext(ChannelNames);
  return useMemo(
    () => (workspaceId: string, refs: readonly ChannelRef[]) =>
      refs.map((ref) => {
        const name = names.get(workspaceId)?.get(ref.id);
        // A person keeps the `@` (it is how channelName tells them from a channel), and wins
        // over a saved label: a DM saved before people were known is labelled with a user ID.
        if (name?.startsWith('@')) return { id: ref.id, label: name };
        if (ref.label) return ref;
        return name ? { id: ref.id, label: name.replace(/^#/, '') } : ref;
      }),
    [names],
  );
}
