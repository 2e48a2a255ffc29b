// A workspace's name as every view says it, removed ones included: "Initech (removed)" in the
// Queue, History and Presets alike, and "a removed workspace" only where its name was never
// known: a file queued by an older version carries no name, and a snapshot this window saw
// before the removal may still know it.
import type { Snapshot } from '../../preload/contract';

const seenNames = new Map<string, string>();

/** `savedName` is the name a record kept with it (History's entries and queued files keep one). */
export function workspaceName(snapshot: Snapshot, id: string, savedName?: string): string {
  for (const w of snapshot.workspaces) seenNames.set(w.id, w.name);
  const current = snapshot.workspaces.find((w) => w.id === id);
  if (current) return current.name;
  const name = savedName || seenNames.get(id);
  return name ? `${name} (removed)` : 'a removed workspace';
}
