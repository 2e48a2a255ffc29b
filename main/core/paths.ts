// Where Trayshare keeps its files. The CLI must find the app's settings without Electron, so
// this repeats Electron's rule for app.getPath('userData'): the per-user application-data folder
// of the platform, joined with the product name.
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

const PRODUCT_NAME = 'Trayshare';

/**
 * The folder Electron's `app.getPath('userData')` gives for productName "Trayshare";
 * `TRAYSHARE_DATA_DIR` overrides it (tests, portable setups, several profiles).
 */
export function defaultUserDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = env.TRAYSHARE_DATA_DIR?.trim();
  if (override) return platform === 'win32' ? win32.resolve(override) : posix.resolve(override);
  return platform === 'win32'
    ? win32.join(windowsAppData(env), PRODUCT_NAME)
    : posix.join(posixAppData(env, platform), PRODUCT_NAME);
}

function windowsAppData(env: NodeJS.ProcessEnv): string {
  // Electron asks the shell for FOLDERID_RoamingAppData, which %APPDATA% names.
  if (env.APPDATA) return env.APPDATA;
  const profile = env.USERPROFILE || homedir();
  return win32.join(profile, 'AppData', 'Roaming');
}

function posixAppData(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support');
  // Linux and the BSDs: Chromium's XDG rule (a set, non-empty XDG_CONFIG_HOME wins).
  return env.XDG_CONFIG_HOME || posix.join(home, '.config');
}
