// What the queue reads from the settings while it runs: how many uploads at once, and each
// workspace's file size limit. Read each time, so a change applies to the next file.

import { DEFAULT_MAX_FILE_BYTES } from '../settings/schema';
import type { SettingsService } from '../settings/settings-service';
import type { QueueDeps } from './queue-api';

export function queueSettings(
  settings: Pick<SettingsService, 'preferences' | 'workspace'>,
): Pick<QueueDeps, 'concurrency' | 'maxFileBytes'> {
  return {
    concurrency: () => settings.preferences().concurrency,
    maxFileBytes: (id) => settings.workspace(id)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
}
