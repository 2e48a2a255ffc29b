// Launch at login on Linux: a desktop entry in $XDG_CONFIG_HOME/autostart, which every
// XDG-compliant session (GNOME, KDE, Xfce, LXQt…) starts at login. Electron's
// app.setLoginItemSettings covers macOS and Windows only.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { desktopExec, desktopString } from '../integration/quoting';

export interface AutostartEntry {
  /** Folder that holds `autostart/` ($XDG_CONFIG_HOME, usually ~/.config). */
  configHome: string;
  /** File name without `.desktop`. */
  id: string;
  name: string;
  /** The program and its arguments, unquoted (quoting.ts writes them for the Exec key). */
  command: string[];
  comment?: string;
  icon?: string;
}

/** $XDG_CONFIG_HOME when it is an absolute path (the spec says to ignore a relative one), else ~/.config. */
export function xdgConfigHome(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const value = env.XDG_CONFIG_HOME;
  return value?.startsWith('/') ? value : join(home, '.config');
}

export function autostartFile(entry: Pick<AutostartEntry, 'configHome' | 'id'>): string {
  return join(entry.configHome, 'autostart', `${entry.id}.desktop`);
}

export function renderAutostartEntry(entry: AutostartEntry): string {
  const lines = [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    `Name=${desktopString(entry.name)}`,
    ...(entry.comment ? [`Comment=${desktopString(entry.comment)}`] : []),
    `Exec=${desktopExec(entry.command[0] ?? '', entry.command.slice(1), [])}`,
    ...(entry.icon ? [`Icon=${desktopString(entry.icon)}`] : []),
    'Terminal=false',
    'NoDisplay=true',
    'X-GNOME-Autostart-enabled=true',
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes (or rewrites, e.g. after the app moved) the entry atomically; returns its path. */
export async function enableAutostart(entry: AutostartEntry): Promise<string> {
  const file = autostartFile(entry);
  await mkdir(join(entry.configHome, 'autostart'), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, renderAutostartEntry(entry), { mode: 0o644 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return file;
}

/** Removes the entry; resolves false when there was none. */
export async function disableAutostart(
  entry: Pick<AutostartEntry, 'configHome' | 'id'>,
): Promise<boolean> {
  const file = autostartFile(entry);
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** True when the entry exists and says exactly what `entry` would write (same program, same name). */
export async function autostartIsCurrent(entry: AutostartEntry): Promise<boolean> {
  try {
    return (await readFile(autostartFile(entry), 'utf8')) === renderAutostartEntry(entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Turns launch at login on or off; an unchanged entry is left untouched. */
export async function setAutostart(entry: AutostartEntry, enabled: boolean): Promise<void> {
  if (!enabled) {
    await disableAutostart(entry);
    return;
  }
  if (!(await autostartIsCurrent(entry))) await enableAutostart(entry);
}
