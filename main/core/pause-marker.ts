// The tray's pause outlives a restart: a marker file in the state folder, read before the
// queue opens so it never starts sending before the pause is applied.
import { access, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export function pauseMarker(stateDir: string): {
  read(): Promise<boolean>;
  write(paused: boolean): Promise<void>;
} {
  const path = join(stateDir, 'paused');
  return {
    read: () =>
      access(path).then(
        () => true,
        () => false,
      ),
    write: async (paused) => {
      if (paused) await writeFile(path, '');
      else await rm(path, { force: true });
    },
  };
}
