// Launch at login: the OS API on macOS and Windows, an XDG autostart entry on Linux.
// The app starts hidden in the tray when launched this way (`--autostart`).
import { type AutostartEntry, setAutostart } from '../core/autostart/xdg-autostart';

export const AUTOSTART_FLAG = '--autostart';

export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin?: boolean; args?: string[]; path?: string }): void;
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
  deps.app.setLoginItemSettings(
    deps.platform === 'win32'
      ? { openAtLogin: enabled, args: [AUTOSTART_FLAG] }
      : { openAtLogin: enabled },
  );
}
