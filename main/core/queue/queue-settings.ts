// What the queue, delivery and History read from the settings while a share runs: how many
// uploads at once, each workspace's file size limit, and the workspace itself (its address,
// protocol and name). One read of the settings file serves everything that runs in the same
// turn of the event loop: a scheduling pass starts its files with one read, and their attempts
// see the workspace that pass saw. A change (a save here, or the watched file changed by
// another process) is seen by the next read, so it applies to the next file as before; a
// workspace removed while files wait still fails them when they start.
// A share's completion reads nothing: its files complete with the workspace their attempts
// started with, unless a change since then removed it. The change event says so (removeWorkspace
// saving the file, or the watcher seeing another process's edit), so the completion need not
// read the file to find out.
import type { Settings } from '../settings/schema';
import { DEFAULT_MAX_FILE_BYTES } from '../settings/schema';
import type { SettingsService } from '../settings/settings-service';
import type { QueueDeps } from './queue-api';

export interface SettingsNow {
  (): Settings;
  /** The workspace was in an earlier read and a change since has removed it (reads nothing). */
  removed(workspaceId: string): boolean;
}

/** The settings as they are now, read once per turn of the event loop (see above). */
export function settingsOncePerTurn(
  settings: Pick<SettingsService, 'read' | 'onChange'>,
): SettingsNow {
  let current: Settings | undefined;
  let seen: Set<string> | undefined;
  const gone = new Set<string>();
  const take = (read: Settings): Settings => {
    const ids = new Set(read.workspaces.map((w) => w.id));
    for (const id of seen ?? []) if (!ids.has(id)) gone.add(id);
    // A workspace can come back (a kept copy of a damaged file restored as config.json).
    for (const id of ids) gone.delete(id);
    seen = ids;
    return read;
  };
  const now = (): Settings => {
    if (current === undefined) {
      current = take(settings.read());
      queueMicrotask(() => {
        current = undefined;
      });
    }
    return current;
  };
  settings.onChange(() => {
    current = undefined;
    // Read once the change is whole (a change can tell listeners from inside a read), and
    // only when there is something to compare with.
    if (seen !== undefined) queueMicrotask(now);
  });
  return Object.assign(now, { removed: (id: string) => gone.has(id) });
}

export function queueSettings(now: SettingsNow): Pick<QueueDeps, 'concurrency' | 'maxFileBytes'> {
  return {
    concurrency: () => now().preferences.concurrency,
    maxFileBytes: (id) =>
      now().workspaces.find((w) => w.id === id)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
}

/** What delivery and History know of a workspace, through the same one read. */
export interface WorkspaceNow extends Pick<SettingsService, 'workspace'> {
  /** Removed since it was last read, as the change event told (reads nothing). */
  removed(id: string): boolean;
}

export function workspaceNow(now: SettingsNow): WorkspaceNow {
  return { workspace: (id) => now().workspaces.find((w) => w.id === id), removed: now.removed };
}
