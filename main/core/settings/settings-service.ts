// Workspaces, presets and preferences (the settings file) plus tokens (the keychain): the core
// API's settings methods, and a few lookups the queue, the app service and the CLI need.
// The token goes from setToken to the keychain and from the keychain to token(); nothing here
// writes it anywhere else, and getSnapshot only says whether there is one.
import { randomUUID } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import {
  type ChannelCheck,
  type ConnectionCheck,
  type CoreApi,
  type CoreMethodName,
  coreMethodArgs,
  type PreferencesResult,
  type PresetInput,
  type PresetPatch,
  type Snapshot,
  type WorkspaceInput,
  type WorkspacePatch,
  type WorkspaceView,
} from '../api';
import type { ChannelRef, Preferences, Preset, Protocol, Workspace } from '../model';
import { KeychainError, type SecretStore } from '../secrets/secret-store';
import { type ShareTarget, targetByName } from '../share/target';
import { authTest } from '../upload/auth-test';
import { normaliseChannels } from '../upload/channels';
import { checkBaseUrl, checkToken } from '../upload/credentials';
import type { Transport } from '../upload/transport';
import { APP_VERSION } from '../version';
import { baseUrlSchema, channelRefsSchema, DEFAULT_MAX_FILE_BYTES, type Settings } from './schema';
import { SettingsError, type SettingsErrorCode } from './settings-error';
import { confStoreFactory, SettingsFile, type StoreFactory } from './settings-file';
import { scrubTokens } from './tokens-in-file';

export { SettingsError } from './settings-error';
export type { ConfLike, StoreFactory, StoreOptions } from './settings-file';
export { confStoreFactory } from './settings-file';

export interface UpdatedWorkspace extends Workspace {
  /** The base URL moved to another origin, so the saved token was removed: ask for a new one. */
  tokenCleared: boolean;
}

export interface RemovedWorkspace {
  workspace: Workspace;
  /** Presets that shared to this workspace, removed with it. */
  presetsRemoved: Preset[];
  /** 'unknown' when there is no keychain to ask (no Secret Service): no token can be stored there. */
  token: 'removed' | 'none' | 'unknown';
  /** One sentence saying all of the above. */
  message: string;
}

export interface LoginResult {
  workspace: Workspace;
  created: boolean;
  /** auth.test where the service offers it; otherwise says the token cannot be checked. */
  connection: ConnectionCheck;
}

export interface SettingsService
  extends Pick<
    CoreApi,
    | 'getSnapshot'
    | 'addWorkspace'
    | 'updateWorkspace'
    | 'removeWorkspace'
    | 'setToken'
    | 'clearToken'
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

  workspace(id: string): Workspace | undefined;
  /** Case-insensitive. */
  workspaceByName(name: string): Workspace | undefined;
  preset(id: string): Preset | undefined;
  /** Case-insensitive. */
  presetByName(name: string): Preset | undefined;
  workspaces(): Workspace[];
  /** In the person's order. */
  presets(): Preset[];
  defaultPreset(): Preset | undefined;
  preferences(): Preferences;
  /** From the keychain; TRAYSHARE_TOKEN is NOT read here (the CLI applies it). */
  token(workspaceId: string): Promise<string | null>;
  onChange(listener: () => void): () => void;
  /** What was reset when the settings file was broken, naming the kept file. */
  notice(): string | undefined;
  /** Where the settings file is. */
  readonly path: string;
  /** Stops watching the file (see OpenSettingsOptions.watch). */
  close(): void;

  // One call per CLI command.
  /** A workspace by name (case-insensitive) or id; throws SettingsError 'not_found' listing the names. */
  findWorkspace(nameOrId: string): Workspace;
  /** A preset by name (case-insensitive) or id; throws SettingsError 'not_found' listing the names. */
  findPreset(nameOrId: string): Preset;
  /**
   * `trayshare login`: checks the token first (a URL is refused before anything is saved),
   * creates the workspace (baseUrl needed) or updates it, stores the token, and tests the
   * connection. A new workspace whose token could not be stored is removed again.
   */
  login(input: {
    workspace: string;
    baseUrl?: string;
    protocol?: Protocol;
    token: string;
  }): Promise<LoginResult>;
  /** `trayshare logout`: removes the workspace's token (the workspace and presets stay). */
  logout(workspace: string): Promise<{ workspace: Workspace; removed: boolean }>;
  /** `trayshare presets add`: channels as typed ("C1, C2"), workspace by name or id. */
  addPresetFromText(input: {
    name: string;
    workspace: string;
    channels: string;
    comment?: string;
    makeDefault?: boolean;
  }): Promise<Preset>;
  /** `trayshare send`: a preset by name, or a workspace by name plus channels as typed. */
  shareTarget(input: { preset?: string; workspace?: string; channels?: string }): ShareTarget;
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
}

function fail(code: SettingsErrorCode, message: string): never {
  throw new SettingsError(code, message);
}

/** Validates a core method's arguments with its schema from api.ts. */
function parseArgs<M extends CoreMethodName>(
  method: M,
  values: unknown[],
): z.output<(typeof coreMethodArgs)[M]> {
  const parsed = coreMethodArgs[method].safeParse(values);
  if (parsed.success) return parsed.data as z.output<(typeof coreMethodArgs)[M]>;
  const issue = parsed.error.issues[0];
  // The first path element is the argument's position: people know fields, not positions.
  const where = issue?.path.slice(1).join('.');
  return fail('invalid_input', `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid input'}`);
}

/** A token pasted into a name, URL, label or comment would end up in the settings file. */
function refuseTokenShaped(input: object): void {
  const { found } = scrubTokens(input, 'remove');
  if (found.length > 0) {
    fail(
      'invalid_input',
      `${found[0]} looks like a token. Tokens go only in the token field, which keeps them in the OS keychain.`,
    );
  }
}

function trimmedName(value: string, what: string): string {
  const name = value.trim();
  if (name === '') fail('invalid_input', `Give the ${what} a name.`);
  return name;
}

function checkedBaseUrl(value: string): string {
  const check = checkBaseUrl(value);
  if (!check.ok) fail(check.code as SettingsErrorCode, check.message);
  return baseUrlSchema.parse(value);
}

function checkedChannels(refs: readonly ChannelRef[]): ChannelRef[] {
  const parsed = channelRefsSchema.safeParse(refs);
  if (parsed.success) return parsed.data;
  return fail('invalid_channels', parsed.error.issues[0]?.message ?? 'Invalid channel IDs.');
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function originOf(url: string): string {
  return new URL(url).origin;
}

function names(items: { name: string }[]): string {
  return items.map((i) => i.name).join(', ') || 'none yet';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

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

export function openSettingsService(opts: OpenSettingsOptions): SettingsService {
  const file = new SettingsFile(opts.dir, opts.storeFactory ?? confStoreFactory, opts.now);
  const secrets = opts.secrets;
  const listeners = new Set<() => void>();
  const emit = (): void => {
    for (const listener of listeners) listener();
  };
  file.onNotice(emit);
  const stopWatching = opts.watch ? watchFile(file.path, emit) : () => {};

  // Changes that await the keychain run one at a time, so two of them never interleave between
  // reading the settings and writing them back.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  const read = (): Settings => file.read();

  /** Read, change, write, tell listeners; the change runs on a fresh copy of the file's data. */
  function update<T>(change: (s: Settings) => T): T {
    const settings = structuredClone(read());
    const result = change(settings);
    try {
      file.write(settings);
    } catch (error) {
      const code = (error as { code?: string }).code ?? String(error);
      fail('write_failed', `Could not save the settings to ${file.path} (${code}).`);
    }
    emit();
    return result;
  }

  function requireWorkspace(settings: Settings, id: string): Workspace {
    return (
      settings.workspaces.find((w) => w.id === id) ??
      fail('not_found', 'That workspace no longer exists.')
    );
  }

  function requirePreset(settings: Settings, id: string): Preset {
    return (
      settings.presets.find((p) => p.id === id) ??
      fail('not_found', 'That preset no longer exists.')
    );
  }

  function uniqueWorkspaceName(settings: Settings, name: string, except?: string): void {
    const other = settings.workspaces.find((w) => w.id !== except && sameName(w.name, name));
    if (other) fail('duplicate_name', `There is already a workspace named "${other.name}".`);
  }

  function uniquePresetName(settings: Settings, name: string, except?: string): void {
    const other = settings.presets.find((p) => p.id !== except && sameName(p.name, name));
    if (other) fail('duplicate_name', `There is already a preset named "${other.name}".`);
  }

  /** Removes a workspace's token; with no keychain at all there is nothing it could have kept. */
  async function forgetToken(workspaceId: string): Promise<'removed' | 'none' | 'unknown'> {
    try {
      return (await secrets.delete(workspaceId)) ? 'removed' : 'none';
    } catch (error) {
      if (error instanceof KeychainError && error.problem === 'no-secret-service') return 'unknown';
      throw error;
    }
  }

  function findWorkspace(nameOrId: string): Workspace {
    const all = read().workspaces;
    return (
      all.find((w) => w.id === nameOrId) ??
      all.find((w) => sameName(w.name, nameOrId.trim())) ??
      fail('not_found', `No workspace named "${nameOrId}" (workspaces: ${names(all)}).`)
    );
  }

  function findPreset(nameOrId: string): Preset {
    const all = read().presets;
    return (
      all.find((p) => p.id === nameOrId) ??
      all.find((p) => sameName(p.name, nameOrId.trim())) ??
      fail('not_found', `No preset named "${nameOrId}" (presets: ${names(all)}).`)
    );
  }

  async function addWorkspace(input: WorkspaceInput): Promise<Workspace> {
    const [checked] = parseArgs('addWorkspace', [input]);
    refuseTokenShaped(checked);
    const name = trimmedName(checked.name, 'workspace');
    const baseUrl = checkedBaseUrl(checked.baseUrl);
    return serial(async () =>
      update((s) => {
        uniqueWorkspaceName(s, name);
        const workspace: Workspace = {
          id: randomUUID(),
          name,
          baseUrl,
          protocol: checked.protocol ?? 'files.upload',
          maxFileBytes: DEFAULT_MAX_FILE_BYTES,
        };
        s.workspaces.push(workspace);
        return workspace;
      }),
    );
  }

  async function updateWorkspace(id: string, patch: WorkspacePatch): Promise<UpdatedWorkspace> {
    const [wid, checked] = parseArgs('updateWorkspace', [id, patch]);
    refuseTokenShaped(checked);
    const name = checked.name === undefined ? undefined : trimmedName(checked.name, 'workspace');
    const baseUrl = checked.baseUrl === undefined ? undefined : checkedBaseUrl(checked.baseUrl);
    return serial(async () => {
      const current = requireWorkspace(read(), wid);
      if (name !== undefined) uniqueWorkspaceName(read(), name, wid);
      // A token is issued for one service: it must never follow the workspace to another origin.
      const moved = baseUrl !== undefined && originOf(baseUrl) !== originOf(current.baseUrl);
      if (moved) await forgetToken(wid);
      const updated = update((s) => {
        const w = requireWorkspace(s, wid);
        if (name !== undefined) {
          uniqueWorkspaceName(s, name, wid);
          w.name = name;
        }
        if (baseUrl !== undefined) w.baseUrl = baseUrl;
        if (checked.protocol !== undefined) w.protocol = checked.protocol;
        if (checked.maxFileBytes !== undefined) w.maxFileBytes = checked.maxFileBytes;
        return { ...w };
      });
      return { ...updated, tokenCleared: moved };
    });
  }

  async function removeWorkspaceWithSummary(id: string): Promise<RemovedWorkspace> {
    const [wid] = parseArgs('removeWorkspace', [id]);
    return serial(async () => {
      const workspace = requireWorkspace(read(), wid);
      // The token goes first: if the keychain refuses, the workspace stays, so the token is
      // never left behind without a way to remove it.
      const token = await forgetToken(wid);
      const presetsRemoved = update((s) => {
        const removed = s.presets.filter((p) => p.workspaceId === wid);
        s.workspaces = s.workspaces.filter((w) => w.id !== wid);
        s.presets = s.presets.filter((p) => p.workspaceId !== wid);
        if (removed.some((p) => p.id === s.defaultPresetId)) s.defaultPresetId = null;
        return removed;
      });
      const tokenText = {
        removed: 'its token was deleted from the keychain',
        none: 'it had no token in the keychain',
        unknown: 'no keychain was reachable to check for a token',
      }[token];
      const presetText =
        presetsRemoved.length === 0
          ? 'it had no presets'
          : `its ${plural(presetsRemoved.length, 'preset')} (${names(presetsRemoved)}) were removed`;
      return {
        workspace,
        presetsRemoved,
        token,
        message: `Removed workspace ${workspace.name}: ${tokenText}, and ${presetText}.`,
      };
    });
  }

  async function setToken(workspaceId: string, token: string): Promise<void> {
    const [wid, value] = parseArgs('setToken', [workspaceId, token]);
    const check = checkToken(value);
    if (!check.ok) fail(check.code as SettingsErrorCode, check.message);
    requireWorkspace(read(), wid);
    await serial(() => secrets.set(wid, value.trim()));
    emit();
  }

  async function clearTokenOf(workspaceId: string): Promise<boolean> {
    const [wid] = parseArgs('clearToken', [workspaceId]);
    requireWorkspace(read(), wid);
    const removed = await serial(() => secrets.delete(wid));
    emit();
    return removed;
  }

  async function testConnection(workspaceId: string): Promise<ConnectionCheck> {
    const [wid] = parseArgs('testConnection', [workspaceId]);
    const workspace = requireWorkspace(read(), wid);
    let token: string | null;
    try {
      token = await secrets.get(wid);
    } catch (error) {
      if (error instanceof KeychainError) {
        return { ok: false, checked: false, message: error.message };
      }
      throw error;
    }
    const tokenCheck = checkToken(token);
    if (!tokenCheck.ok) {
      return { ok: false, checked: false, message: `${workspace.name}: ${tokenCheck.message}` };
    }
    if (token === null) return fail('no_token', 'No token.');
    const result = await authTest(workspace.baseUrl, token.trim(), opts.transport);
    if (result.ok) {
      const who = [result.user && `as ${result.user}`, result.team && `on ${result.team}`]
        .filter(Boolean)
        .join(' ');
      return {
        ok: true,
        checked: true,
        message: `${workspace.name}: the service accepted the token${who ? ` (${who})` : ''}.`,
        ...(result.user ? { user: result.user } : {}),
        ...(result.team ? { team: result.team } : {}),
      };
    }
    if (!result.checked) {
      return {
        ok: false,
        checked: false,
        message: `${workspace.name}: this service does not offer auth.test, so the token cannot be checked without uploading a file. It was saved; the first upload will tell.`,
      };
    }
    return {
      ok: false,
      checked: true,
      message: `${workspace.name}: ${result.reason.message}`,
      ...(result.reason.class === 'credential' ? { refused: true } : {}),
    };
  }

  async function addPreset(input: PresetInput): Promise<Preset> {
    const [checked] = parseArgs('addPreset', [input]);
    refuseTokenShaped(checked);
    const name = trimmedName(checked.name, 'preset');
    const channels = checkedChannels(checked.channels);
    return serial(async () =>
      update((s) => {
        requireWorkspace(s, checked.workspaceId);
        uniquePresetName(s, name);
        const preset: Preset = {
          id: randomUUID(),
          name,
          workspaceId: checked.workspaceId,
          channels,
          comment: checked.comment,
        };
        s.presets.push(preset);
        // The only preset is the obvious default; later ones never take over silently.
        if (s.presets.length === 1) s.defaultPresetId = preset.id;
        return preset;
      }),
    );
  }

  async function updatePreset(id: string, patch: PresetPatch): Promise<Preset> {
    const [pid, checked] = parseArgs('updatePreset', [id, patch]);
    refuseTokenShaped(checked);
    const name = checked.name === undefined ? undefined : trimmedName(checked.name, 'preset');
    const channels = checked.channels === undefined ? undefined : checkedChannels(checked.channels);
    return serial(async () =>
      update((s) => {
        const p = requirePreset(s, pid);
        if (name !== undefined) {
          uniquePresetName(s, name, pid);
          p.name = name;
        }
        if (checked.workspaceId !== undefined) {
          requireWorkspace(s, checked.workspaceId);
          p.workspaceId = checked.workspaceId;
        }
        if (channels !== undefined) p.channels = channels;
        if (checked.comment !== undefined) p.comment = checked.comment;
        return { ...p };
      }),
    );
  }

  async function removePreset(id: string): Promise<void> {
    const [pid] = parseArgs('removePreset', [id]);
    return serial(async () =>
      update((s) => {
        requirePreset(s, pid);
        s.presets = s.presets.filter((p) => p.id !== pid);
        // Never move the default to another preset: a drop would go to channels nobody chose.
        if (s.defaultPresetId === pid) s.defaultPresetId = null;
      }),
    );
  }

  async function reorderPresets(ids: string[]): Promise<void> {
    const [order] = parseArgs('reorderPresets', [ids]);
    if (new Set(order).size !== order.length) fail('invalid_input', 'A preset is listed twice.');
    await serial(async () =>
      update((s) => {
        const byId = new Map(s.presets.map((p) => [p.id, p]));
        for (const pid of order)
          if (!byId.has(pid)) fail('not_found', 'A preset in that order no longer exists.');
        // Presets missing from the list (added meanwhile, e.g. by the CLI) keep their place at the end.
        const listed = order.map((pid) => byId.get(pid) as Preset);
        s.presets = [...listed, ...s.presets.filter((p) => !order.includes(p.id))];
      }),
    );
  }

  async function setDefaultPreset(id: string | null): Promise<void> {
    const [pid] = parseArgs('setDefaultPreset', [id]);
    await serial(async () =>
      update((s) => {
        if (pid !== null) requirePreset(s, pid);
        s.defaultPresetId = pid;
      }),
    );
  }

  async function setPreferences(
    patch: Parameters<CoreApi['setPreferences']>[0],
  ): Promise<PreferencesResult> {
    const [checked] = parseArgs('setPreferences', [patch]);
    const clean = Object.fromEntries(
      Object.entries(checked).filter(([, value]) => value !== undefined),
    ) as Partial<Preferences>;
    if (clean.shortcut !== undefined) clean.shortcut = clean.shortcut.trim();
    return serial(async () =>
      update((s) => {
        s.preferences = { ...s.preferences, ...clean };
        return { preferences: { ...s.preferences } };
      }),
    );
  }

  async function checkChannels(text: string): Promise<ChannelCheck> {
    const [value] = parseArgs('checkChannels', [text]);
    return normaliseChannels(value);
  }

  async function getSnapshot(): Promise<Snapshot> {
    const settings = read();
    const keychainNotices = new Set<string>();
    const workspaces: WorkspaceView[] = await Promise.all(
      settings.workspaces.map(async (w) => {
        try {
          return { ...w, hasToken: (await secrets.get(w.id)) !== null };
        } catch (error) {
          // The settings still show; the person learns why tokens look missing.
          keychainNotices.add(
            error instanceof KeychainError
              ? error.message
              : `The keychain could not be read: ${error instanceof Error ? error.message : String(error)}`,
          );
          return { ...w, hasToken: false };
        }
      }),
    );
    const notices = [file.notice(), ...keychainNotices].filter(Boolean);
    return {
      workspaces,
      presets: settings.presets,
      defaultPresetId: settings.defaultPresetId,
      preferences: settings.preferences,
      paused: opts.paused?.() ?? false,
      version: APP_VERSION,
      ...(notices.length > 0 ? { settingsNotice: notices.join(' ') } : {}),
    };
  }

  async function login(input: {
    workspace: string;
    baseUrl?: string;
    protocol?: Protocol;
    token: string;
  }): Promise<LoginResult> {
    const tokenCheck = checkToken(input.token);
    if (!tokenCheck.ok) fail(tokenCheck.code as SettingsErrorCode, tokenCheck.message);
    const existing = read().workspaces.find((w) => sameName(w.name, input.workspace.trim()));
    let workspace: Workspace;
    if (existing) {
      const patch: WorkspacePatch = {};
      if (input.baseUrl !== undefined) patch.baseUrl = input.baseUrl;
      if (input.protocol !== undefined) patch.protocol = input.protocol;
      workspace =
        Object.keys(patch).length > 0 ? await updateWorkspace(existing.id, patch) : existing;
    } else {
      if (input.baseUrl === undefined) {
        fail(
          'needs_base_url',
          `New workspace "${input.workspace}": give its base URL (such as https://slack.com).`,
        );
      }
      workspace = await addWorkspace({
        name: input.workspace,
        baseUrl: input.baseUrl,
        ...(input.protocol ? { protocol: input.protocol } : {}),
      });
    }
    try {
      await setToken(workspace.id, input.token);
    } catch (error) {
      // A workspace created just now without its token would only be in the way.
      if (!existing) await removeWorkspaceWithSummary(workspace.id).catch(() => undefined);
      throw error;
    }
    const { tokenCleared: _ignored, ...plain } = workspace as UpdatedWorkspace;
    return { workspace: plain, created: !existing, connection: await testConnection(workspace.id) };
  }

  async function logout(name: string): Promise<{ workspace: Workspace; removed: boolean }> {
    const workspace = findWorkspace(name);
    return { workspace, removed: await clearTokenOf(workspace.id) };
  }

  async function addPresetFromText(input: {
    name: string;
    workspace: string;
    channels: string;
    comment?: string;
    makeDefault?: boolean;
  }): Promise<Preset> {
    const workspace = findWorkspace(input.workspace);
    const channels = normaliseChannels(input.channels);
    if (!channels.ok) fail('invalid_channels', channels.error);
    const preset = await addPreset({
      name: input.name,
      workspaceId: workspace.id,
      channels: channels.channels.map((id) => ({ id })),
      comment: input.comment ?? '',
    });
    if (input.makeDefault) await setDefaultPreset(preset.id);
    return preset;
  }

  function shareTarget(input: {
    preset?: string;
    workspace?: string;
    channels?: string;
  }): ShareTarget {
    return targetByName(
      { findPreset, findWorkspace, workspace: (id) => read().workspaces.find((w) => w.id === id) },
      input,
    );
  }

  return {
    getSnapshot,
    addWorkspace,
    updateWorkspace,
    removeWorkspace: async (id) => {
      await removeWorkspaceWithSummary(id);
    },
    removeWorkspaceWithSummary,
    setToken,
    clearToken: async (workspaceId) => {
      await clearTokenOf(workspaceId);
    },
    testConnection,
    addPreset,
    updatePreset,
    removePreset,
    reorderPresets,
    setDefaultPreset,
    setPreferences,
    checkChannels,
    workspace: (id) => read().workspaces.find((w) => w.id === id),
    workspaceByName: (name) => read().workspaces.find((w) => sameName(w.name, name.trim())),
    preset: (id) => read().presets.find((p) => p.id === id),
    presetByName: (name) => read().presets.find((p) => sameName(p.name, name.trim())),
    workspaces: () => read().workspaces,
    presets: () => read().presets,
    defaultPreset: () => {
      const s = read();
      return s.presets.find((p) => p.id === s.defaultPresetId);
    },
    preferences: () => read().preferences,
    token: (workspaceId) => secrets.get(workspaceId),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notice: () => file.notice(),
    get path() {
      return file.path;
    },
    close: stopWatching,
    findWorkspace,
    findPreset,
    login,
    logout,
    addPresetFromText,
    shareTarget,
  };
}
