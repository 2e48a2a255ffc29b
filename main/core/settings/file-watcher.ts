// Changes another process makes to the settings file (the CLI while the app runs) reach the
// app without a restart.
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Calls `changed` once per burst of changes to the file; returns a function that stops it. */
function watchFile(path: string, changed: () => void): () => void {
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

/**
 * One watcher of the file, on while any of its watches is: the app watches for as long as it
 * runs, the CLI only while a send's files are on their way (starting costs a watcher, which a
 * command that only looks does not need).
 */
export function fileWatches(path: string, changed: () => void) {
  let count = 0;
  let stop: (() => void) | undefined;
  const close = (): void => {
    count = 0;
    stop?.();
    stop = undefined;
  };
  return {
    watch(): () => void {
      count++;
      stop ??= watchFile(path, changed);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        count--;
        if (count <= 0) close();
      };
    },
    close,
  };
}
