// "Share with Trayshare" on Linux desktops, per user: an Open With entry (any desktop that
// follows the Desktop Entry spec), a script for Files (Nautilus), a service menu for Dolphin
// and a custom action for Thunar. Every one starts `<exe> --share <paths…>` in one process.
import { posix } from 'node:path';
import { desktopExec, desktopString, shellQuote, xmlEscape } from './quoting';
import type { AppPaths, FileEntry, UcaActionEntry } from './types';

export interface LinuxDirs {
  dataHome: string;
  configHome: string;
  /** System config folders, most important first ($XDG_CONFIG_DIRS). */
  configDirs: string[];
}

const absolute = (value: string | undefined): string | undefined =>
  value && posix.isAbsolute(value) ? posix.resolve(value) : undefined;

/** The XDG base directories; relative values are ignored, as the spec requires. */
export function linuxDirs(home: string, env: NodeJS.ProcessEnv): LinuxDirs {
  const configDirs = (env.XDG_CONFIG_DIRS ?? '')
    .split(':')
    .filter((dir) => posix.isAbsolute(dir))
    .map((dir) => posix.resolve(dir));
  return {
    dataHome: absolute(env.XDG_DATA_HOME) ?? posix.join(home, '.local', 'share'),
    configHome: absolute(env.XDG_CONFIG_HOME) ?? posix.join(home, '.config'),
    configDirs: configDirs.length > 0 ? configDirs : ['/etc/xdg'],
  };
}

const ACTION_NAME = 'Share with Trayshare';
const COMMENT = "Share files to your team's channels";
const MARKER_KEY = 'X-Trayshare-Integration';
const THUNAR_UNIQUE_ID = 'trayshare-share-with-trayshare';

const iconOf = (app: AppPaths) => app.icon ?? 'trayshare';

const exec = (app: AppPaths) => desktopExec(app.exe, ['--share'], ['%F']);

/**
 * The Open With entry. Hidden from menus (NoDisplay) but offered for every file type: all
 * types descend from application/octet-stream. Folders are left out so Trayshare never
 * becomes the program that opens folders (the other entries handle folders).
 */
function shareDesktopEntry(app: AppPaths, dirs: LinuxDirs): FileEntry {
  const marker = `${MARKER_KEY}=desktop-entry`;
  const content = [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.4',
    `Name=${ACTION_NAME}`,
    `Comment=${COMMENT}`,
    `Icon=${desktopString(iconOf(app))}`,
    `TryExec=${desktopString(app.exe)}`,
    `Exec=${exec(app)}`,
    'Terminal=false',
    'NoDisplay=true',
    'StartupNotify=false',
    'MimeType=application/octet-stream;',
    marker,
    '',
  ].join('\n');
  return {
    kind: 'file',
    id: 'desktop-entry',
    label: 'Open With (Files, Dolphin, Thunar, Nemo, Caja…)',
    path: posix.join(dirs.dataHome, 'applications', 'trayshare-share.desktop'),
    content,
    mode: 0o644,
    marker,
    root: dirs.dataHome,
  };
}

/**
 * Files (Nautilus) runs executables in its scripts folder from the Scripts menu, with the
 * selection in NAUTILUS_SCRIPT_SELECTED_FILE_PATHS, one path per line. Globbing is off and
 * only newline splits, so spaces, quotes, `*` and `$` in paths stay as they are.
 */
function nautilusScript(app: AppPaths, dirs: LinuxDirs): FileEntry {
  const marker = `# ${MARKER_KEY}: nautilus-script`;
  const content = [
    '#!/bin/sh',
    marker,
    `# "${ACTION_NAME}" in the Scripts menu of Files. Written by Trayshare; turning its`,
    '# file-manager integration off removes it.',
    'set -f',
    "IFS='",
    "'",
    'set -- $NAUTILUS_SCRIPT_SELECTED_FILE_PATHS',
    '[ "$#" -gt 0 ] || exit 0',
    `exec ${shellQuote(app.exe)} --share "$@"`,
    '',
  ].join('\n');
  return {
    kind: 'file',
    id: 'nautilus-script',
    label: 'Files (Nautilus): Scripts menu',
    path: posix.join(dirs.dataHome, 'nautilus', 'scripts', ACTION_NAME),
    content,
    mode: 0o755,
    marker,
    root: dirs.dataHome,
  };
}

/** Dolphin's service menu: top level of the context menu, for files and folders alike. */
function dolphinServiceMenu(app: AppPaths, dirs: LinuxDirs): FileEntry {
  const marker = `${MARKER_KEY}=dolphin-service-menu`;
  const content = [
    '[Desktop Entry]',
    'Type=Service',
    'X-KDE-ServiceTypes=KonqPopupMenu/Plugin',
    'MimeType=all/all;',
    'Actions=shareWithTrayshare;',
    'X-KDE-Priority=TopLevel',
    marker,
    '',
    '[Desktop Action shareWithTrayshare]',
    `Name=${ACTION_NAME}`,
    `Icon=${desktopString(iconOf(app))}`,
    `Exec=${exec(app)}`,
    '',
  ].join('\n');
  return {
    kind: 'file',
    id: 'dolphin-service-menu',
    label: 'Dolphin: context menu',
    path: posix.join(dirs.dataHome, 'kio', 'servicemenus', 'trayshare.desktop'),
    content,
    // Dolphin (KDE Frameworks ≥ 5.85) ignores service menus that are not executable.
    mode: 0o755,
    marker,
    root: dirs.dataHome,
  };
}

/**
 * Thunar's custom action. Thunar replaces %F with each path shell-quoted, turns %% into %,
 * and runs the line with /bin/sh -c: so the program is shell-quoted and its % doubled.
 * Only elements every Thunar since 1.0 reads are used (older ones refuse unknown elements).
 */
function thunarAction(app: AppPaths, dirs: LinuxDirs): UcaActionEntry {
  const command = `${shellQuote(app.exe).replace(/%/g, '%%')} --share %F`;
  const action = [
    '<action>',
    `\t<icon>${xmlEscape(iconOf(app))}</icon>`,
    `\t<name>${xmlEscape(ACTION_NAME)}</name>`,
    `\t<unique-id>${THUNAR_UNIQUE_ID}</unique-id>`,
    `\t<command>${xmlEscape(command)}</command>`,
    `\t<description>${xmlEscape(COMMENT)}</description>`,
    '\t<patterns>*</patterns>',
    '\t<directories/>',
    '\t<audio-files/>',
    '\t<image-files/>',
    '\t<other-files/>',
    '\t<text-files/>',
    '\t<video-files/>',
    '</action>',
  ].join('\n');
  return {
    kind: 'uca-action',
    id: 'thunar-action',
    label: 'Thunar: context menu',
    path: posix.join(dirs.configHome, 'Thunar', 'uca.xml'),
    uniqueId: THUNAR_UNIQUE_ID,
    action,
    seedFrom: dirs.configDirs.map((dir) => posix.join(dir, 'Thunar', 'uca.xml')),
    root: dirs.configHome,
  };
}

export function linuxEntries(app: AppPaths, dirs: LinuxDirs): (FileEntry | UcaActionEntry)[] {
  return [
    shareDesktopEntry(app, dirs),
    nautilusScript(app, dirs),
    dolphinServiceMenu(app, dirs),
    thunarAction(app, dirs),
  ];
}
