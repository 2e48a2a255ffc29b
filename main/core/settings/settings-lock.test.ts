// The settings file's lock (settings-lock.ts) when another process holds it, or held it and is
// gone: a crashed process never blocks the others, a live one makes a change wait and, past the
// wait, refuse with words and change nothing. (Processes changing the settings at the same
// moment: test/settings/across-processes.test.ts.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SecretStore } from '../secrets/secret-store';
import { openSettingsAccess, type SettingsAccess } from './settings-access';
import { SettingsError } from './settings-error';
import { confStoreFactory, SettingsFile } from './settings-file';
import { withSettingsLock } from './settings-lock';

// These changes never reach the keychain.
const noKeychain: SecretStore = {
  get: () => Promise.reject(new Error('not used')),
  set: () => Promise.reject(new Error('not used')),
  delete: () => Promise.reject(new Error('not used')),
};

let dir: string;
let config: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'trayshare-settings-lock-'));
  config = join(dir, 'config.json');
  lock = `${config}.lock`;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function access(waitMs?: number): SettingsAccess {
  return openSettingsAccess(new SettingsFile(dir, confStoreFactory, Date.now, waitMs), noKeychain);
}

/** A pid no process has now: a child that has already exited. */
function exitedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

function leaveLock(owner: { pid: number; host?: string; since: number }): void {
  writeFileSync(lock, JSON.stringify({ host: hostname(), ...owner }));
}

const addPreferenceChange = (settings: SettingsAccess, concurrency: number) =>
  settings.update((s) => {
    s.preferences.concurrency = concurrency;
  });

it('a lock left by a process that has exited is taken over at once, and removed after', () => {
  leaveLock({ pid: exitedPid(), since: Date.now() });
  const settings = access(0);
  addPreferenceChange(settings, 4);
  expect(settings.read().preferences.concurrency).toBe(4);
  expect(existsSync(lock)).toBe(false);
});

it('a lock older than any change takes is taken over even when its pid now belongs to a running program', () => {
  leaveLock({ pid: process.ppid, since: Date.now() - 60_000 });
  const settings = access(0);
  addPreferenceChange(settings, 5);
  expect(settings.read().preferences.concurrency).toBe(5);
  expect(existsSync(lock)).toBe(false);
});

it('a lock created but not yet written is waited for while new, and taken over once old', () => {
  writeFileSync(lock, '');
  expect(() => withSettingsLock(config, () => 'ran', { waitMs: 20 })).toThrow(SettingsError);
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  expect(withSettingsLock(config, () => 'ran', { waitMs: 0 })).toBe('ran');
});

it('a lock held by a running process: the change waits, then refuses naming the lock, and changes nothing', () => {
  const settings = access(50);
  addPreferenceChange(settings, 2);
  const before = readFileSync(config, 'utf8');
  leaveLock({ pid: process.ppid, since: Date.now() });
  let ran = false;
  let refused: unknown;
  try {
    settings.update((s) => {
      ran = true;
      s.preferences.concurrency = 6;
    });
  } catch (error) {
    refused = error;
  }
  expect(ran).toBe(false);
  expect(refused).toBeInstanceOf(SettingsError);
  expect((refused as SettingsError).code).toBe('settings_busy');
  expect((refused as SettingsError).message).toContain(
    `another Trayshare process (pid ${process.ppid})`,
  );
  expect((refused as SettingsError).message).toContain(lock);
  expect(readFileSync(config, 'utf8')).toBe(before);
  expect(existsSync(lock)).toBe(true);
  // Once the other process lets go, the same change goes through.
  rmSync(lock);
  addPreferenceChange(settings, 6);
  expect(settings.read().preferences.concurrency).toBe(6);
});

it('a change that throws lets go of the lock; a repair inside a change does not wait for itself', () => {
  const settings = access(0);
  expect(() =>
    settings.update(() => {
      throw new Error('refused');
    }),
  ).toThrow('refused');
  expect(existsSync(lock)).toBe(false);
  // An old file the read migrates and writes back, from inside the change's lock.
  writeFileSync(config, JSON.stringify({ workspaces: [], presets: [] }));
  addPreferenceChange(settings, 3);
  expect(settings.read().preferences.concurrency).toBe(3);
  expect(existsSync(lock)).toBe(false);
});

it('the file is never written without its lock', () => {
  const file = new SettingsFile(dir, confStoreFactory);
  expect(() => file.write(file.read())).toThrow('written without its lock');
});
