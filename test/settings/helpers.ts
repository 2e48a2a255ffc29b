// Shared set-up for the settings tests: a temp user-data folder, the real keychain under a
// service name of the test's own (so nothing collides with real entries), the Node transport.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Preset, Workspace } from '../../main/core/model';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import type { SecretStore } from '../../main/core/secrets/secret-store';
import {
  type OpenSettingsOptions,
  openSettingsService,
  type SettingsService,
} from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';

export interface Fixture {
  dir: string;
  /** The keychain service name the test's tokens are under (for processes it starts). */
  service: string;
  secrets: SecretStore;
  open(extra?: Partial<OpenSettingsOptions>): SettingsService;
  configText(): Promise<string>;
  /** Every file under the user-data folder with its bytes. */
  files(): Promise<{ path: string; bytes: Buffer }[]>;
  cleanup(): Promise<void>;
}

export async function settingsFixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-settings-'));
  const service = `Trayshare-test-${randomUUID()}`;
  const secrets = createKeychainStore({ service });
  const accounts = new Set<string>();
  // Remember every account touched so the keyring is left clean.
  const tracked: SecretStore = {
    get: (a) => secrets.get(a),
    set: (a, s) => {
      accounts.add(a);
      return secrets.set(a, s);
    },
    delete: (a) => secrets.delete(a),
  };
  const transport = createNodeTransport();
  return {
    dir,
    service,
    secrets: tracked,
    open: (extra) => openSettingsService({ dir, secrets: tracked, transport, ...extra }),
    configText: () => readFile(join(dir, 'config.json'), 'utf8'),
    async files() {
      const out: { path: string; bytes: Buffer }[] = [];
      const walk = async (at: string): Promise<void> => {
        for (const entry of await readdir(at, { withFileTypes: true })) {
          const path = join(at, entry.name);
          if (entry.isDirectory()) await walk(path);
          else out.push({ path, bytes: await readFile(path) });
        }
      };
      await walk(dir);
      return out;
    },
    async cleanup() {
      for (const account of accounts) await secrets.delete(account).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function keptFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.startsWith('config.json.damaged-')).sort();
}

/** The workspaces as saved: the snapshot's, without whether each has a token. */
export async function savedWorkspaces(settings: SettingsService): Promise<Workspace[]> {
  const { workspaces } = await settings.getSnapshot();
  return workspaces.map(({ hasToken: _hasToken, ...workspace }) => workspace);
}

/** The presets as saved, in the person's order. */
export async function savedPresets(settings: SettingsService): Promise<Preset[]> {
  return (await settings.getSnapshot()).presets;
}

export async function savedDefaultPreset(settings: SettingsService): Promise<Preset | undefined> {
  const { presets, defaultPresetId } = await settings.getSnapshot();
  return presets.find((p) => p.id === defaultPresetId);
}
