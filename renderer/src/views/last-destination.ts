// Where the last share went (a preset, or a workspace's picked channels), so the next sheet
// starts there and a screenshot taken with the capture shortcut goes with one Enter. Kept in
// the page's storage: it names a preset or channels, never a token or a file.
import type { ChannelRef, Snapshot } from '../../../preload/contract';

const KEY = 'trayshare.lastDestination';

export type LastDestination =
  | { mode: 'preset'; presetId: string }
  | { mode: 'channels'; workspaceId: string; picked: ChannelRef[] };

export function rememberDestination(last: LastDestination): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(last));
  } catch {
    // Storage refused (full, or turned off): the next sheet starts on the default preset.
  }
}

/** The last destination while it still exists in the settings; null otherwise. */
export function lastDestination(snapshot: Snapshot): LastDestination | null {
  let last: LastDestination;
  try {
    last = JSON.parse(localStorage.getItem(KEY) ?? 'null') as LastDestination;
  } catch {
    return null;
  }
  if (last?.mode === 'preset') {
    return snapshot.presets.some((p) => p.id === last.presetId) ? last : null;
  }
  if (last?.mode === 'channels' && Array.isArray(last.picked) && last.picked.length > 0) {
    return snapshot.workspaces.some((w) => w.id === last.workspaceId) ? last : null;
  }
  return null;
}
