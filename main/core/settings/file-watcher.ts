// Changes another process makes to the settings file (the CLI while the app runs) reach the
// app without a restart.
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Calls `changed` once per burst of changes to the file; returns a function that stops it. */
export function watchFile(path: string, changed: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const stop = (): void => {
    clearTimeout(timer);
    watcher?.close();
    watcher = undefined;
  };
  try {
    // The folder, not the file: conf and electron-store write a temp file and rename it over.
    watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
      if (name !== null && name !== basename(path)) return;
      clearTimeout(timer);
      timer = setTimeout(changed, 50);
    });
    watcher.on('error', stop);
  } catch {
    // No watching on this file system: other processes' changes show on the next read.
  }
  return stop;
}
