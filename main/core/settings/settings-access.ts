// The one way the settings modules read and change the file: each change reads and writes the file
// holding its lock (no other process changes it in between), changes that await the keychain run
// one at a time, and every change tells the listeners.
import type { SecretStore } from '../secrets/secret-store';
import { fail } from './input-rules';
import type { Settings } from './schema';
import type { SettingsFile } from './settings-file';

export interface SettingsAccess {
  readonly secrets: SecretStore;
  read(): Settings;
  /**
   * Read, change, write (holding the file's lock, across processes), tell listeners; the change
   * runs on a fresh copy of the file's data and must be synchronous. Throws SettingsError
   * 'settings_busy' when another process holds the lock too long; nothing is changed then.
   */
  update<T>(change: (s: Settings) => T): T;
  /** Runs changes one after the other (see openSettingsAccess). */
  serial<T>(run: () => Promise<T>): Promise<T>;
  /** Tells the listeners that something changed (a token, which the file does not hold). */
  emit(): void;
  onChange(listener: () => void): () => void;
}

export function openSettingsAccess(file: SettingsFile, secrets: SecretStore): SettingsAccess {
  const listeners = new Set<() => void>();
  const emit = (): void => {
    for (const listener of listeners) listener();
  };
  file.onNotice(emit);

  // Changes that await the keychain run one at a time, so two of them never interleave between
  // reading the settings and writing them back.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  const read = (): Settings => file.read();

  // Read, change and write hold the file's lock (settings-file.ts, locked()), so another
  // process's change is either wholly before this one (and read here) or wholly after it. The
  // change is synchronous, so nothing else in this process runs in between either.
  function update<T>(change: (s: Settings) => T): T {
    const result = file.locked(() => {
      const settings = structuredClone(read());
      const value = change(settings);
      try {
        file.write(settings);
      } catch (error) {
        const code = (error as { code?: string }).code ?? String(error);
        fail('write_failed', `Could not save the settings to ${file.path} (${code}).`);
      }
      return value;
    });
    emit();
    return result;
  }

  return {
    secrets,
    read,
    update,
    serial,
    emit,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
