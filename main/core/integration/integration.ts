// Installs, removes, checks and repairs "Share with Trayshare" for the current user. The
// entries come from the pure generators; this module only reads and writes them, through
// injected dependencies so it runs (and is tested) in plain Node.
//
// In the app, the shell passes process.execPath (or $APPIMAGE), the icon in
// process.resourcesPath, and Electron's shell.writeShortcutLink/readShortcutLink on Windows.

import * as nodeFs from 'node:fs/promises';
import { posix } from 'node:path';
import { errorMessage } from '../../portable/error-message';
import { windowsProgram } from '../system-programs';
import { execFileRunner } from './exec-runner';
import {
  parseRegQueryValue,
  regAddArgs,
  regDeleteArgs,
  regQueryKeyArgs,
  regQuerySignatureArgs,
  SIGNATURE_VALUE,
  windowsDirs,
  windowsEntries,
} from './explorer-menu';
import { linuxDirs, linuxEntries } from './linux';
import {
  EMPTY_UCA,
  findUcaAction,
  UcaFormatError,
  withoutUcaAction,
  withUcaAction,
} from './thunar-uca';
import type {
  AppPaths,
  CommandRunner,
  EntryState,
  EntryStatus,
  IntegrationEntry,
  IntegrationFs,
  IntegrationState,
  IntegrationStatus,
  ShortcutDetails,
  UcaActionEntry,
} from './types';

export interface IntegrationDeps {
  platform: NodeJS.Platform;
  app: AppPaths;
  home: string;
  env: NodeJS.ProcessEnv;
  fs?: IntegrationFs;
  /** Runs reg.exe on Windows. Defaults to child_process.execFile. */
  run?: CommandRunner;
  /** Windows: writes a .lnk, e.g. (p, d) => shell.writeShortcutLink(p, 'create', d). */
  writeShortcut?: (path: string, details: ShortcutDetails) => boolean;
  /** Windows: reads a .lnk back (shell.readShortcutLink); throws when it cannot. */
  readShortcut?: (path: string) => ShortcutDetails;
}

export interface FileManagerIntegration {
  status(): Promise<IntegrationStatus>;
  /** Writes every entry (replacing Trayshare's own, leaving anything foreign alone). */
  install(): Promise<IntegrationStatus>;
  /** Removes Trayshare's entries and the folders that held only them. */
  remove(): Promise<IntegrationStatus>;
  /** Rewrites entries that point at another location of the app (it moved or was updated). */
  repair(): Promise<IntegrationStatus>;
  /**
   * The "Share with Trayshare" switch in Settings: installs (or repairs) or removes, and throws
   * one sentence of what could not be done. Nothing to do where the OS has it built in.
   */
  setEnabled(enabled: boolean): Promise<void>;
}

/** The program file managers should start: an AppImage must be started through its image. */
export function launcherPath(execPath: string, env: NodeJS.ProcessEnv): string {
  return env.APPIMAGE || execPath;
}

const isMissing = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  (error.code === 'ENOENT' || error.code === 'ENOTDIR');

export function createFileManagerIntegration(deps: IntegrationDeps): FileManagerIntegration {
  const run = deps.run ?? execFileRunner;
  const { platform } = deps;
  const entries: IntegrationEntry[] =
    platform === 'darwin'
      ? []
      : platform === 'win32'
        ? windowsEntries(deps.app, windowsDirs(deps.home, deps.env))
        : linuxEntries(deps.app, linuxDirs(deps.home, deps.env));
  const io: Io = {
    fs: deps.fs ?? (nodeFs as unknown as IntegrationFs),
    reg: (args) => run(windowsProgram('reg.exe', deps.env), args),
    deps,
    platform,
    entries,
  };
  const integration: FileManagerIntegration = {
    status: () => status(io),
    install: () =>
      forEachEntry(io, async (entry, state) => {
        if (state !== 'installed') await write(io, entry, state);
      }),
    remove: () =>
      forEachEntry(io, async (entry, state) => {
        if (state === 'installed' || state === 'stale') await erase(io, entry);
      }),
    repair: () =>
      forEachEntry(io, async (entry, state) => {
        if (state === 'stale') await write(io, entry, state);
      }),
    setEnabled: async (enabled) => {
      const current = await integration.status();
      if (current.state === 'builtin') return;
      const result = enabled
        ? current.state === 'installed'
          ? current
          : await integration.install()
        : await integration.remove();
      if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.message).join(' '));
    },
  };
  return integration;
}

/** What the entries are read and written with, and which entries this platform has. */
interface Io {
  fs: IntegrationFs;
  reg: (args: string[]) => ReturnType<CommandRunner>;
  deps: IntegrationDeps;
  platform: NodeJS.Platform;
  entries: IntegrationEntry[];
}

async function readText(io: Io, path: string): Promise<string | null> {
  try {
    return await io.fs.readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

async function exists(io: Io, path: string): Promise<boolean> {
  try {
    await io.fs.stat(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

// Written beside the target and renamed over it, so a reader never sees half a file.
async function writeAtomic(io: Io, path: string, content: string, mode: number): Promise<void> {
  await io.fs.mkdir(posix.dirname(path), { recursive: true });
  const temp = `${path}.trayshare-${process.pid}.tmp`;
  try {
    await io.fs.writeFile(temp, content, { mode });
    await io.fs.chmod(temp, mode);
    await io.fs.rename(temp, path);
  } catch (error) {
    await io.fs.rm(temp, { force: true });
    throw error;
  }
}

async function pruneEmptyFolders(io: Io, path: string, root: string): Promise<void> {
  let dir = posix.dirname(path);
  while (dir.startsWith(`${root}/`)) {
    try {
      if ((await io.fs.readdir(dir)).length > 0) return;
      await io.fs.rmdir(dir);
    } catch (error) {
      if (isMissing(error)) {
        dir = posix.dirname(dir);
        continue;
      }
      return;
    }
    dir = posix.dirname(dir);
  }
}

async function seedFor(io: Io, entry: UcaActionEntry): Promise<string> {
  for (const candidate of entry.seedFrom) {
    const text = await readText(io, candidate);
    if (text !== null) return text;
  }
  return EMPTY_UCA;
}

// ---- state of one entry ----

async function stateOf(io: Io, entry: IntegrationEntry): Promise<EntryState> {
  switch (entry.kind) {
    case 'file': {
      const text = await readText(io, entry.path);
      if (text === null) return 'missing';
      if (!text.includes(entry.marker)) return 'foreign';
      const mode = (await io.fs.stat(entry.path)).mode & 0o777;
      return text === entry.content && mode === entry.mode ? 'installed' : 'stale';
    }
    case 'uca-action': {
      const text = await readText(io, entry.path);
      const found = text === null ? null : findUcaAction(text, entry.uniqueId);
      if (found === null) return 'missing';
      return found === entry.action ? 'installed' : 'stale';
    }
    case 'registry': {
      const query = await io.reg(regQuerySignatureArgs(entry));
      if (query.code === 0) {
        return parseRegQueryValue(query.stdout, SIGNATURE_VALUE) === entry.signature
          ? 'installed'
          : 'stale';
      }
      // The verb key is Trayshare's by its name; without our signature it is an old one.
      return (await io.reg(regQueryKeyArgs(entry))).code === 0 ? 'stale' : 'missing';
    }
    case 'shortcut': {
      if (!(await exists(io, entry.path))) return 'missing';
      if (!io.deps.readShortcut) return 'installed';
      try {
        const found = io.deps.readShortcut(entry.path);
        return found.target === entry.details.target &&
          (found.args ?? '') === (entry.details.args ?? '')
          ? 'installed'
          : 'stale';
      } catch {
        return 'stale';
      }
    }
  }
}

// ---- writing and removing one entry ----

async function write(io: Io, entry: IntegrationEntry, state: EntryState): Promise<void> {
  if (entry.problem) throw new Error(entry.problem);
  switch (entry.kind) {
    case 'file':
      if (state === 'foreign') {
        throw new Error(`${entry.path} was not written by Trayshare; it was left as it is.`);
      }
      await writeAtomic(io, entry.path, entry.content, entry.mode);
      return;
    case 'uca-action': {
      const current = (await readText(io, entry.path)) ?? (await seedFor(io, entry));
      let merged: string;
      try {
        merged = withUcaAction(current, entry.uniqueId, entry.action);
      } catch (error) {
        if (!(error instanceof UcaFormatError)) throw error;
        throw new Error(`${entry.path} is not in the form Thunar writes; it was left as it is.`);
      }
      await writeAtomic(io, entry.path, merged, 0o644);
      return;
    }
    case 'registry': {
      // Cleared first so values an older version wrote do not linger.
      await io.reg(regDeleteArgs(entry));
      for (const args of regAddArgs(entry)) {
        const result = await io.reg(args);
        if (result.code !== 0) {
          throw new Error(`reg.exe could not write ${args[1]}: ${result.stderr.trim()}`);
        }
      }
      return;
    }
    case 'shortcut': {
      if (!io.deps.writeShortcut) throw new Error('No shortcut writer was given.');
      if (!io.deps.writeShortcut(entry.path, entry.details)) {
        throw new Error(`Could not write the shortcut ${entry.path}.`);
      }
      return;
    }
  }
}

async function erase(io: Io, entry: IntegrationEntry): Promise<void> {
  switch (entry.kind) {
    case 'file':
      await io.fs.rm(entry.path, { force: true });
      await pruneEmptyFolders(io, entry.path, entry.root);
      return;
    case 'uca-action': {
      const current = await readText(io, entry.path);
      if (current === null) return;
      const rest = withoutUcaAction(current, entry.uniqueId);
      // Nothing left but what the file was made from: the file itself was Trayshare's doing.
      if (rest === (await seedFor(io, entry)) || rest === EMPTY_UCA) {
        await io.fs.rm(entry.path, { force: true });
        await pruneEmptyFolders(io, entry.path, entry.root);
      } else {
        await writeAtomic(io, entry.path, rest, (await io.fs.stat(entry.path)).mode & 0o777);
      }
      return;
    }
    case 'registry': {
      const result = await io.reg(regDeleteArgs(entry));
      if (result.code !== 0) {
        throw new Error(`reg.exe could not delete ${entry.key}: ${result.stderr.trim()}`);
      }
      return;
    }
    case 'shortcut':
      await io.fs.rm(entry.path, { force: true });
      return;
  }
}

// ---- whole integration ----

const locationOf = (entry: IntegrationEntry) =>
  entry.kind === 'registry' ? entry.key : entry.path;

async function status(
  io: Io,
  errors: IntegrationStatus['errors'] = [],
): Promise<IntegrationStatus> {
  if (io.platform === 'darwin') {
    return {
      platform: io.platform,
      state: 'builtin',
      entries: [],
      message:
        'On macOS, Trayshare is in Finder’s Open With menu and takes files dropped on its icon: there is nothing to install.',
      errors,
    };
  }
  const list: EntryStatus[] = [];
  const allErrors = [...errors];
  for (const entry of io.entries) {
    let state: EntryState = 'missing';
    try {
      state = await stateOf(io, entry);
    } catch (error) {
      allErrors.push({ id: entry.id, message: `Could not check: ${errorMessage(error)}` });
    }
    list.push({ id: entry.id, label: entry.label, location: locationOf(entry), state });
  }
  const state = overallState(list);
  return {
    platform: io.platform,
    state,
    entries: list,
    message: messageFor(io.platform, state, list),
    errors: allErrors,
  };
}

async function forEachEntry(
  io: Io,
  action: (entry: IntegrationEntry, state: EntryState) => Promise<void>,
): Promise<IntegrationStatus> {
  const errors: IntegrationStatus['errors'] = [];
  for (const entry of io.entries) {
    try {
      await action(entry, await stateOf(io, entry));
    } catch (error) {
      errors.push({ id: entry.id, message: errorMessage(error) });
    }
  }
  return status(io, errors);
}

function overallState(list: EntryStatus[]): IntegrationState {
  if (list.some((e) => e.state === 'stale')) return 'needs-repair';
  const installed = list.filter((e) => e.state === 'installed').length;
  if (installed === list.length) return 'installed';
  return installed === 0 ? 'not-installed' : 'partial';
}

function messageFor(
  platform: NodeJS.Platform,
  state: IntegrationState,
  list: EntryStatus[],
): string {
  const where =
    platform === 'win32'
      ? 'Explorer’s context menu (under “Show more options” on Windows 11) and in Send to'
      : 'Open With and in the context menus of Files, Dolphin and Thunar';
  const labels = (wanted: EntryState[]) =>
    list
      .filter((e) => wanted.includes(e.state))
      .map((e) => e.label)
      .join('; ');
  switch (state) {
    case 'installed':
      return `“Share with Trayshare” is in ${where}.`;
    case 'needs-repair':
      return `Some entries point to an old location of Trayshare (${labels(['stale'])}): repair rewrites them.`;
    case 'partial':
      return `“Share with Trayshare” is missing from: ${labels(['missing', 'foreign'])}.`;
    default:
      return `“Share with Trayshare” is not installed. Turning it on adds it to ${where}.`;
  }
}
