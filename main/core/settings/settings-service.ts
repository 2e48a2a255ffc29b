// Workspaces, presets and preferences (the settings file) plus tokens (the keychain): the core
// API's settings methods, and a few lookups the queue, the app service and the CLI need. Each
// kind of setting has its own module (workspaces, workspace-tokens, presets, preferences,
// settings-snapshot, share-target); this one opens the file and puts them together, and says
// how the queue, delivery and History read it while shares run (settingsOncePerTurn, below).
// The token goes from setToken to the keychain and from the keychain to token(); nothing here
// writes it anywhere else, and getSnapshot only says whether there is one.

import { normaliseChannels } from '../../portable/channels';
import type { CoreApi, WorkspacePatch } from '../api';
import type { Preferences, Preset, Workspace } from '../model';
import type { SecretStore } from '../secrets/secret-store';
import { type TokenHome, type TokenPair, workspaceSecrets } from '../secrets/workspace-secrets';
import type { Transport } from '../upload/transport';
import { DEFAULT_MAX_FILE_BYTES } from './defaults';
import { fileWatches } from './file-watcher';
import { parseArgs, sameName } from './input-rules';
import { setPreferences } from './preferences';
import { presets as presetRules } from './presets';
import type { Settings } from './schema';
import { openSettingsAccess } from './settings-access';
import { confStoreFactory, SettingsFile, type StoreFactory } from './settings-file';
import { settingsSnapshot } from './settings-snapshot';
import { type ShareTarget, shareTarget } from './share-target';
import { type SignInRecord, signInRecords } from './sign-in-records';
import { workspaceTokens } from './workspace-tokens';
import {
  type RemovedWorkspace,
  type UpdatedWorkspace,
  workspaces as workspaceRules,
} from './workspaces';

export type { StoreFactory } from './settings-file';
export { confStoreFactory } from './settings-file';
export type { UpdatedWorkspace } from './workspaces';

export interface SettingsService
  extends Pick<
    CoreApi,
    | 'getSnapshot'
    | 'addWorkspace'
    | 'updateWorkspace'
    | 'removeWorkspace'
    | 'setToken'
    | 'removePreset'
    | 'testConnection'
    | 'addPreset'
    | 'updatePreset'
    | 'reorderPresets'
    | 'setDefaultPreset'
    | 'setPreferences'
    | 'checkChannels'
  > {
  updateWorkspace(id: string, patch: WorkspacePatch): Promise<UpdatedWorkspace>;
  /**
   * Deletes the workspace's token from the keychain and its presets, then the workspace, and
   * says so. (removeWorkspace does the same for the core API, which resolves to nothing.)
   */
  removeWorkspaceWithSummary(id: string): Promise<RemovedWorkspace>;
  /** Whether there was a token to remove (the core API resolves to nothing). */
  clearToken(workspaceId: string): Promise<boolean>;
  /**
   * Saves the token, unless the workspace has moved away from `checkedAt`'s origin (the address
   * it was checked against): then nothing is saved (SettingsError 'workspace_moved').
   */
  setToken(workspaceId: string, token: string, checkedAt?: string): Promise<void>;

  /** The whole file, as one read (settingsOncePerTurn, below, shares one read per turn). */
  read(): Settings;
  workspace(id: string): Workspace | undefined;
  /** Case-insensitive. */
  workspaceByName(name: string): Workspace | undefined;
  preset(id: string): Preset | undefined;
  preferences(): Preferences;
  /**
   * From the keychain, the token kept for this workspace at the origin of `baseUrl`, where the
   * request goes; TRAYSHARE_TOKEN is NOT read here (the CLI applies it).
   */
  token(workspace: TokenHome): Promise<string | null>;
  onChange(listener: () => void): () => void;
  /** What was reset when the settings file was broken, naming the kept file. */
  notice(): string | undefined;
  /** Where the settings file is. */
  readonly path: string;
  /**
   * Watches the file from now on, so another process's changes reach onChange listeners (the
   * CLI while it sends); the function returned ends this watch. The file is watched while any
   * watch (or OpenSettingsOptions.watch) is on.
   */
  watch(): () => void;
  /** Stops watching the file (see OpenSettingsOptions.watch and watch). */
  close(): void;

  // For the CLI, which names workspaces and presets as people type them.
  /** A workspace by name (case-insensitive) or id; throws SettingsError 'not_found' listing the names. */
  findWorkspace(nameOrId: string): Workspace;
  /** A preset by name (case-insensitive) or id; throws SettingsError 'not_found' listing the names. */
  findPreset(nameOrId: string): Preset;
  /** `trayshare send`: a preset by name, or a workspace by name plus channels as typed. */
  shareTarget(input: { preset?: string; workspace?: string; channels?: string }): ShareTarget;

  // Sign in with Slack (auth/): what the settings file keeps of a sign-in.
  /**
   * Keeps a finished sign-in: its tokens in the keychain for record.baseUrl's origin, and the
   * sign-in in this workspace, or in a new one (with this id) named after the team, as one step.
   * When any part fails, or the workspace moved to another origin meanwhile, nothing is kept and
   * the keychain is left as it was.
   */
  recordSignIn(
    workspace: { id: string; isNew: boolean },
    record: SignInRecord,
    tokens: TokenPair,
  ): Promise<Workspace>;
  setTokenExpiry(workspaceId: string, expiresAt: number): void;
  clearSignIn(workspaceId: string): void;
}

export interface OpenSettingsOptions {
  /** The user-data folder; the settings file is config.json in it. */
  dir: string;
  secrets: SecretStore;
  transport: Transport;
  /** conf (default) in the CLI, electron-store in the app. */
  storeFactory?: StoreFactory;
  /** Whether the queue is paused, for the snapshot. */
  paused?: () => boolean;
  /** Clock for the kept file's name. */
  now?: () => number;
  /**
   * Watch the file, so changes made by another process (the CLI while the app runs) reach
   * onChange listeners. Off by default; close() stops it.
   */
  watch?: boolean;
  /** How long a change waits for another process's change to the file (tests shorten it). */
  lockWaitMs?: number;
}

export function openSettingsService(opts: OpenSettingsOptions): SettingsService {
  const file = new SettingsFile(
    opts.dir,
    opts.storeFactory ?? confStoreFactory,
    opts.now,
    opts.lockWaitMs,
  );
  const secrets = opts.secrets;
  const access = openSettingsAccess(file, secrets);
  const { read } = access;
  const watching = fileWatches(file.path, access.emit);
  if (opts.watch) watching.watch();
  const { findWorkspace, addWorkspace, updateWorkspace, removeWorkspaceWithSummary } =
    workspaceRules(access);
  const { setToken, clearToken, testConnection } = workspaceTokens(access, opts.transport);
  const { findPreset, addPreset, updatePreset, removePreset, reorderPresets, setDefaultPreset } =
    presetRules(access);
  const signIns = signInRecords(access);

  return {
    getSnapshot: () =>
      settingsSnapshot(
        access,
        () => file.notice(),
        () => opts.paused?.() ?? false,
      ),
    addWorkspace,
    updateWorkspace,
    removeWorkspace: async (id) => {
      await removeWorkspaceWithSummary(id);
    },
    removeWorkspaceWithSummary,
    setToken,
    clearToken,
    testConnection,
    addPreset,
    updatePreset,
    removePreset,
    reorderPresets,
    setDefaultPreset,
    setPreferences: (patch) => setPreferences(access, patch),
    checkChannels: async (text) => {
      const [value] = parseArgs('checkChannels', [text]);
      return normaliseChannels(value);
    },
    read,
    workspace: (id) => read().workspaces.find((w) => w.id === id),
    workspaceByName: (name) => read().workspaces.find((w) => sameName(w.name, name.trim())),
    preset: (id) => read().presets.find((p) => p.id === id),
    preferences: () => read().preferences,
    token: (workspace) => workspaceSecrets(secrets).accessToken(workspace),
    onChange: access.onChange,
    notice: () => file.notice(),
    get path() {
      return file.path;
    },
    watch: watching.watch,
    close: watching.close,
    findWorkspace,
    findPreset,
    shareTarget: (input) => shareTarget({ read, findPreset, findWorkspace }, input),
    ...signIns,
  };
}

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
export interface SettingsNow {
  (): Settings;
  /** The workspace was in an earlier read and a change since has removed it (reads nothing). */
  removed(workspaceId: string): boolean;
}

/** The settings as they are now, read once per turn of the event loop (see above). */
export function settingsOncePerTurn(
  settings: Pick<SettingsService, 'read' | 'onChange'>,
  /** A workspace an earlier read had is gone (told once per removal, after the read). */
  onRemoved?: (workspaceId: string) => void,
): SettingsNow {
  let current: Settings | undefined;
  let seen: Set<string> | undefined;
  const gone = new Set<string>();
  const take = (read: Settings): Settings => {
    const ids = new Set(read.workspaces.map((w) => w.id));
    for (const id of seen ?? []) {
      if (ids.has(id) || gone.has(id)) continue;
      gone.add(id);
      // Told after the read, never inside it: a read can be part of the queue's scheduling pass.
      if (onRemoved) queueMicrotask(() => onRemoved(id));
    }
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

/** The queue's two settings (QueueDeps' concurrency and maxFileBytes), through the same one read. */
export function queueSettings(now: SettingsNow): {
  concurrency: () => number;
  maxFileBytes: (workspaceId: string) => number;
} {
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
