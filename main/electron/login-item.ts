// Launch at login: the OS API on macOS and Windows, an XDG autostart entry on Linux.
// The app starts hidden in the tray when launched this way (`--autostart`).
// setLoginItemSettings returns nothing, and the OS may not take it: macOS 13+ can hold it for
// the person's approval, Windows keeps it off when it was turned off in Startup apps. So the
// setting is read back (app.getLoginItemSettings, `status` on macOS,
// `executableWillLaunchAtLogin` on Windows: https://www.electronjs.org/docs/latest/api/app)
// and what the OS did not take is said, with where to change it.
import { type AutostartEntry, setAutostart } from '../core/autostart/xdg-autostart';

export const AUTOSTART_FLAG = '--autostart';

export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin?: boolean; args?: string[]; path?: string }): void;
  getLoginItemSettings(options?: { args?: string[] }): {
    openAtLogin: boolean;
    /** macOS 13 and later. */
    status?: 'not-registered' | 'enabled' | 'requires-approval' | 'not-found';
    /** Windows: false when the entry exists but is turned off in Startup apps. */
    executableWillLaunchAtLogin?: boolean;
  };
}

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  app: LoginItemApp;
  /** Linux: where the entry goes and what it runs (an AppImage runs from $APPIMAGE). */
  linuxEntry: () => AutostartEntry;
  setLinuxAutostart?: (entry: AutostartEntry, enabled: boolean) => Promise<void>;
}

/** Applies the preference; on Linux an entry that points elsewhere (the app moved) is rewritten. */
export async function applyLaunchAtLogin(deps: LoginItemDeps, enabled: boolean): Promise<void> {
  if (deps.platform === 'linux') {
    await (deps.setLinuxAutostart ?? setAutostart)(deps.linuxEntry(), enabled);
    return;
  }
  const args = deps.platform === 'win32' ? { args: [AUTOSTART_FLAG] } : {};
  deps.app.setLoginItemSettings({ openAtLogin: enabled, ...args });
  const problem = loginItemProblem(deps.platform, enabled, deps.app.getLoginItemSettings(args));
  if (problem) throw new Error(problem);
}

/** What the OS did not take of the login item, read back after setting it; null when it did. */
function loginItemProblem(
  platform: NodeJS.Platform,
  enabled: boolean,
  read: ReturnType<LoginItemApp['getLoginItemSettings']>,
): string | null {
  if (!enabled) {
    return read.openAtLogin || read.status === 'enabled'
      ? 'Trayshare is still in your login items: remove it in your system’s settings.'
      : null;
  }
  if (platform === 'darwin') {
    switch (read.status) {
      case 'requires-approval':
        return 'macOS needs your approval: open System Settings › General › Login Items and turn Trayshare on.';
      case 'not-registered':
      case 'not-found':
        return `macOS did not add Trayshare to your login items (${read.status}). Move Trayshare to Applications, then turn this on again.`;
      case 'enabled':
        return null;
      default:
        // Before macOS 13 there is no status: openAtLogin is all there is to read.
        return read.openAtLogin ? null : 'macOS did not add Trayshare to your login items.';
    }
  }
  if (!read.openAtLogin)
    return 'Windows did not add Trayshare to the programs that start when you sign in.';
  if (read.executableWillLaunchAtLogin === false) {
    return 'Windows has Trayshare turned off as a startup app: turn it on in Settings › Apps › Startup (or Task Manager’s Startup apps).';
  }
  return null;
}
