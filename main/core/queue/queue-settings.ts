// What the queue, delivery and History read from the settings while a share runs: how many
// uploads at once, each workspace's file size limit, and the workspace itself (its address,
// protocol and name). One read of the settings file serves everything that runs in the same
// turn of the event loop: a scheduling pass starts its files with one read, and their attempts
// see the workspace that pass saw. A change (a save here, or the watched file changed by
// another process) is seen by the next read, so it applies to the next file as before; a
// workspace removed while files wait still fails them when they start.
import type { Settings } from '../settings/schema';
import { DEFAULT_MAX_FILE_BYTES } from '../settings/schema';
import type { SettingsService } from '../settings/settings-service';
import type { QueueDeps } from './queue-api';

export type SettingsNow = () => Settings;

/** The settings as they are now, read once per turn of the event loop (see above). */
export function settingsOncePerTurn(
  settings: Pick<SettingsService, 'read' | 'onChange'>,
): SettingsNow {
  let current: Settings | undefined;
  settings.onChange(() => {
    current = undefined;
  });
  return () => {
    if (current === undefined) {
      current = settings.read();
      queueMicrotask(() => {
        current = undefined;
      });
    }
    return current;
  };
}

export function queueSettings(now: SettingsNow): Pick<QueueDeps, 'concurrency' | 'maxFileBytes'> {
  return {
    concurrency: () => now().preferences.concurrency,
    maxFileBytes: (id) =>
      now().workspaces.find((w) => w.id === id)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
}

/** The workspace lookup delivery and History use, through the same one read. */
export function workspaceNow(now: SettingsNow): Pick<SettingsService, 'workspace'> {
  return { workspace: (id) => now().workspaces.find((w) => w.id === id) };
}
