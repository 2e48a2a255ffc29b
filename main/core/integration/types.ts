// What the file-manager integration writes, described as data. Generators (linux.ts,
// windows.ts) are pure functions from the app's location to these entries; integration.ts
// applies them through an injected file system, command runner and shortcut writer.
import type { ProgramPath } from '../system-programs';

/** Where the app is, as file managers should start it. */
export interface AppPaths {
  /** The program to run: process.execPath, or $APPIMAGE when running from an AppImage. */
  exe: string;
  /** Linux: absolute path of a PNG icon. Without it, entries name the theme icon "trayshare". */
  icon?: string;
}

type EntryId =
  | 'desktop-entry'
  | 'nautilus-script'
  | 'dolphin-service-menu'
  | 'thunar-action'
  | 'explorer-files-verb'
  | 'explorer-folders-verb'
  | 'send-to';

interface EntryBase {
  id: EntryId;
  /** For people: where the entry shows up. */
  label: string;
  /** Set when this entry cannot work for the app's location: installing it fails with this. */
  problem?: string;
}

/** A whole file that belongs to Trayshare (a desktop entry, a script, a service menu). */
export interface FileEntry extends EntryBase {
  kind: 'file';
  path: string;
  content: string;
  mode: number;
  /** A line only Trayshare's files hold: a file at `path` without it is someone else's. */
  marker: string;
  /** The base folder (XDG data or config home): emptied folders are removed up to it. */
  root: string;
}

/** One <action> inside Thunar's uca.xml, a file shared with the user's other actions. */
export interface UcaActionEntry extends EntryBase {
  kind: 'uca-action';
  path: string;
  uniqueId: string;
  /** The <action>…</action> element. */
  action: string;
  /** System-wide uca.xml files (XDG config dirs): the first one found seeds a new user file. */
  seedFrom: string[];
  root: string;
}

export interface RegistryValue {
  /** null: the key's default value. */
  name: string | null;
  data: string;
}

/** A shell verb under HKCU\Software\Classes (per user, no admin rights). */
export interface RegistryVerbEntry extends EntryBase {
  kind: 'registry';
  /** The verb's key; deleting it removes everything below. */
  key: string;
  keys: { key: string; values: RegistryValue[] }[];
  /** Hash of `keys`, stored beside them: status compares it instead of reading paths back. */
  signature: string;
}

/** The subset of Electron's ShortcutDetails the Send To shortcut uses. */
export interface ShortcutDetails {
  target: string;
  args?: string;
  description?: string;
  icon?: string;
  iconIndex?: number;
}

export interface ShortcutEntry extends EntryBase {
  kind: 'shortcut';
  path: string;
  details: ShortcutDetails;
}

export type IntegrationEntry = FileEntry | UcaActionEntry | RegistryVerbEntry | ShortcutEntry;

/**
 * installed: present and current. stale: Trayshare's, but written for another location or
 * version (repair rewrites it). missing: absent. foreign: something else is at that place.
 */
export type EntryState = 'installed' | 'stale' | 'missing' | 'foreign';

export interface EntryStatus {
  id: EntryId;
  label: string;
  /** File path or registry key. */
  location: string;
  state: EntryState;
}

export type IntegrationState =
  | 'installed'
  | 'partial'
  | 'needs-repair'
  | 'not-installed'
  /** macOS: Open With and Dock drops come from the app bundle; nothing to install. */
  | 'builtin';

export interface IntegrationStatus {
  platform: NodeJS.Platform;
  state: IntegrationState;
  entries: EntryStatus[];
  /** One or two sentences for the settings page. */
  message: string;
  /** What the last install, remove or repair could not do, per entry. */
  errors: { id: EntryId; message: string }[];
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program with an argument array (no shell) and never rejects on a non-zero exit. */
export type CommandRunner = (file: ProgramPath, args: readonly string[]) => Promise<CommandResult>;

/** The file operations the integration uses; node:fs/promises provides all of them. */
export interface IntegrationFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  rm(path: string, options: { force: true }): Promise<void>;
  rmdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<{ mode: number; isFile(): boolean }>;
}
