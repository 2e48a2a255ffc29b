// Who the app is to the OS, set before anything else runs in the main process:
// - Windows: the AppUserModelID must be the installer's appId, or notifications carry
//   Electron's id and the Start-menu shortcut is rewritten;
// - Windows, development run: Electron's first toast makes sure a Start-menu shortcut named
//   after the app (`Programs\<name>.lnk`) points at the running executable and carries its
//   AUMID, rewriting one that points elsewhere (electron/electron,
//   shell/browser/notifications/win/windows_toast_activator.cc, EnsureShortcut). Under the
//   installed app's name and AUMID, `npm start` would repoint the installed Trayshare's
//   shortcut at node_modules\electron\dist\electron.exe: it gets a name and AUMID of its own;
// - every OS: an unpackaged run (`npm start`) keeps its own settings, queue and
//   single-instance lock, so it neither shares nor waits for an installed Trayshare.
// Linux's identity (Wayland app_id, portal id) is package.json's desktopName, which Electron
// reads itself and electron-builder's syncDesktopName turns into the .desktop file's name.

/** electron-builder.yml's appId (test/packaging checks they agree). */
export const APP_ID = 'app.trayshare.desktop';
/** package.json's desktopName without ".desktop" (test/packaging checks they agree). */
export const DESKTOP_ID = 'app.trayshare.Trayshare';
/** The name of a development run: its data folder, and on Windows its Start-menu entry. */
export const DEVELOPMENT_NAME = 'Trayshare (development)';
/**
 * The folder name an unpackaged run keeps its data in, beside the installed app's.
 * @alias of DEVELOPMENT_NAME by choice (knip reports one value exported twice): same value, another job.
 */
export const DEVELOPMENT_DATA_FOLDER = DEVELOPMENT_NAME;
/** A development run's AppUserModelID on Windows, apart from the installer's. */
export const DEVELOPMENT_APP_ID = `${APP_ID}.development`;

export interface IdentityApp {
  readonly isPackaged: boolean;
  setName(name: string): void;
  setAppUserModelId(id: string): void;
  getPath(name: 'appData'): string;
  setPath(name: 'userData', path: string): void;
  commandLine: { hasSwitch(name: string): boolean };
}

export function applyAppIdentity(
  app: IdentityApp,
  platform: NodeJS.Platform,
  join: (...parts: string[]) => string,
): void {
  if (platform === 'win32') {
    if (app.isPackaged) {
      app.setAppUserModelId(APP_ID);
    } else {
      // The name is what Electron names the Start-menu shortcut after: set before any toast.
      app.setName(DEVELOPMENT_NAME);
      app.setAppUserModelId(DEVELOPMENT_APP_ID);
    }
  }
  // An explicit --user-data-dir (the demo's throw-away folder) wins.
  if (!app.isPackaged && !app.commandLine.hasSwitch('user-data-dir')) {
    app.setPath('userData', join(app.getPath('appData'), DEVELOPMENT_DATA_FOLDER));
  }
}
