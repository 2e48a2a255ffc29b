// What the running app knows of the core between its events: the tray, the notifications and
// the window routing read it; only the core event fan-out (event-fan-out.ts) and the token
// methods of the window's API change it.
import type { HistoryEntry, QueueItem, Snapshot } from '../../preload/contract';

/** How many finished shares the tray's Recent menu is given. */
export const RECENT_LIMIT = 20;

export interface DesktopState {
  snapshot: Snapshot;
  items: QueueItem[];
  recent: HistoryEntry[];
  /** Workspaces whose queue waits for a token (a refused or missing one). */
  needsToken: Set<string>;
}
