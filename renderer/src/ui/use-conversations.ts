// The channel picker's list of a workspace's conversations and people, from the core's cache:
// what it has at once, then the fresh list when the cache was being refreshed.
import { useEffect, useState } from 'preact/hooks';
import type { DestinationsView } from '../../../preload/contract';
import { api } from '../bridge';

export function useConversations(
  workspaceId: string,
  tokenState: string | undefined,
): DestinationsView | undefined {
  const [view, setView] = useState<DestinationsView>();
  // Asked again when the token changes: "no token saved" no longer holds once one is.
  useEffect(() => {
    let live = true;
    setView(undefined);
    if (!workspaceId) return;
    void (async () => {
      try {
        const first = await api().listConversations(workspaceId, {});
        if (!live) return;
        setView(first);
        if (first.refreshing) {
          const fresh = await api().listConversations(workspaceId, { wait: true });
          if (live) setView(fresh);
        }
      } catch {
        // No list: typed IDs still work.
      }
    })();
    return () => {
      live = false;
    };
  }, [workspaceId, tokenState]);
  return view;
}
