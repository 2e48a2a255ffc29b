// `#name` for channel IDs (`@name` for people and DMs) in notifications and the tray menu: the
// workspaces' cached conversation lists first, then the labels presets were saved with; else
// the ID.
import type { AppService, Snapshot } from '../../preload/contract';
import { destinationLabels } from '../portable/people-names';

export interface ChannelLabels {
  /** Reads every workspace's conversation list again (after settings or history change). */
  load(): Promise<void>;
  /** Up to three names, then "and N more". */
  describe(ids: readonly string[]): string;
}

export function createChannelLabels(
  service: Pick<AppService, 'listConversations'>,
  snapshot: () => Snapshot,
): ChannelLabels {
  let listedNames = new Map<string, string>();
  const load = async () => {
    const next = new Map<string, string>();
    for (const w of snapshot().workspaces) {
      try {
        let view = await service.listConversations(w.id, {});
        if (!view.conversations && view.refreshing) {
          view = await service.listConversations(w.id, { wait: true });
        }
        for (const [id, label] of destinationLabels(view.conversations, view.people)) {
          next.set(id, label);
        }
      } catch {
        // No list for this workspace: its channels show as IDs.
      }
    }
    listedNames = next;
  };
  const describe = (ids: readonly string[]) => {
    const labels = new Map<string, string>();
    for (const preset of snapshot().presets) {
      for (const c of preset.channels)
        if (c.label)
          labels.set(c.id, c.label.startsWith('@') ? c.label : `#${c.label.replace(/^#/, '')}`);
    }
    const names = ids.map((id) => listedNames.get(id) ?? labels.get(id) ?? id);
    return names.length > 3
      ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
      : names.join(', ');
  };
  return { load, describe };
}
