// An AppImage runs without being installed, so the desktop knows nothing of it: no desktop
// entry, and no icon outside its mount point (a new temporary folder on every start). On
// Wayland that costs the global shortcut: the GlobalShortcuts portal grants it to an app whose
// ID (package.json's desktopName, app.trayshare.Trayshare) names an installed desktop entry,
// and GNOME silently denies a bind without one. So when run from $APPIMAGE, Trayshare puts
// that entry, and a stable copy of its icon, under $XDG_DATA_HOME (~/.local/share), as the
// .deb would under /usr/share. The file-manager entries point at the same copy. The entry also
// takes the trayshare: scheme, as electron-builder's `protocols` does for the packages.
// An entry the person or an installed package already has is left alone.

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { linuxDirs } from '../core/integration/linux';
import { desktopExec, desktopString } from '../core/integration/quoting';
import { errorMessage } from '../portable/error-message';
import { SETUP_SCHEME } from '../portable/setup-link';
import { DESKTOP_ID } from './app-identity';

export interface AppImageFacts {
  /** $APPIMAGE: where the AppImage file is. */
  appImage: string;
  /** The icon inside the AppImage (resources/icon.png), gone once it stops. */
  iconSource: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export type AppImageIdentity =
  | { state: 'installed' | 'unchanged'; desktopFile: string; icon: string }
  /** An entry of this name exists already (an installed package, or the person's own). */
  | { state: 'left-alone'; desktopFile: string; icon: string | undefined }
  | { state: 'failed'; error: string; icon: string | undefined };

const MARKER = 'X-Trayshare-AppImage=true';

function appImageDesktopEntry(appImage: string, icon: string): string {
  return `${[
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    'Name=Trayshare',
    `Comment=${desktopString('Share files to your team from the tray')}`,
    // %u: a team's trayshare://setup link opened in the browser reaches the app (hand-off.ts);
    // started from the menu it expands to nothing.
    `Exec=${desktopExec(appImage, [], ['%u'])}`,
    `Icon=${desktopString(icon)}`,
    'Terminal=false',
    'Categories=Network;FileTransfer;',
    `MimeType=x-scheme-handler/${SETUP_SCHEME};`,
    MARKER,
  ].join('\n')}\n`;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature) return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  await mkdir(posix.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data, { mode: 0o644 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

export async function installAppImageIdentity(facts: AppImageFacts): Promise<AppImageIdentity> {
  const { dataHome } = linuxDirs(facts.home, facts.env);
  let icon: string | undefined;
  try {
    const png = await readFile(facts.iconSource);
    const size = pngSize(png);
    // The hicolor theme's folder for its size, so the theme name "trayshare" finds it too.
    const folder = size ? `${size.width}x${size.height}` : '256x256';
    const target = posix.join(dataHome, 'icons', 'hicolor', folder, 'apps', 'trayshare.png');
    const current = await readOrNull(target);
    if (!current?.equals(png)) await writeAtomically(target, png);
    icon = target;
  } catch (error) {
    return { state: 'failed', error: `its icon could not be copied: ${errorMessage(error)}`, icon };
  }

  const name = `${DESKTOP_ID}.desktop`;
  const systemDirs = (facts.env.XDG_DATA_DIRS || '/usr/local/share:/usr/share')
    .split(':')
    .filter((dir) => posix.isAbsolute(dir));
  for (const dir of systemDirs) {
    const file = posix.join(dir, 'applications', name);
    if (await readOrNull(file)) return { state: 'left-alone', desktopFile: file, icon };
  }

  const desktopFile = posix.join(dataHome, 'applications', name);
  const wanted = appImageDesktopEntry(facts.appImage, icon);
  const existing = (await readOrNull(desktopFile))?.toString('utf8');
  if (existing === wanted) return { state: 'unchanged', desktopFile, icon };
  if (existing !== undefined && !existing.includes(`\n${MARKER}\n`)) {
    return { state: 'left-alone', desktopFile, icon };
  }
  try {
    // Written anew when the AppImage was moved or renamed since.
    await writeAtomically(desktopFile, wanted);
  } catch (error) {
    return {
      state: 'failed',
      error: `${desktopFile} could not be written: ${errorMessage(error)}`,
      icon,
    };
  }
  return { state: 'installed', desktopFile, icon };
}
