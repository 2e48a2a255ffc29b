// How this copy of the app was installed, from where it runs and what the OS shows of the
// package manager that put it there. Pure: the caller hands in the executable's path, the home
// folder, the environment and a file-exists check, so each case is tested on any OS.
// - Flatpak: every sandbox has /.flatpak-info, and flatpak sets FLATPAK_ID to the app id
//   (flatpak-docs, "Sandbox permissions" / flatpak-metadata(5)).
// - Homebrew: a cask's app is moved to the appdir (/Applications, or ~/Applications with
//   --appdir) while brew keeps its record under <prefix>/Caskroom/<token>; the prefix is
//   /opt/homebrew on Apple silicon and /usr/local on Intel (Homebrew's Installation page), and
//   HOMEBREW_PREFIX where the shell set one.
// - Scoop: apps live in <root>\apps\<name>\<version> (with a `current` junction), the root being
//   %SCOOP%, its root_path setting or ~\scoop, and %SCOOP_GLOBAL% or %ProgramData%\scoop for
//   global installs (ScoopInstaller/Scoop lib/core.ps1: $scoopdir, $globaldir, appdir).
// - winget runs the same per-user NSIS installer people download, which leaves no mark of its
//   own: that install is an 'installer' one, updating itself like any other (winget then sees the
//   new version in the uninstall key the installer rewrites).
import { posix, win32 } from 'node:path';

export type InstallMethod = 'flatpak' | 'homebrew' | 'scoop' | 'installer';

export interface InstallFacts {
  platform: NodeJS.Platform;
  /** The running executable (app.getPath('exe')). */
  exePath: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  exists(path: string): boolean;
}

/** The cask's and the Scoop manifest's name (build/scripts/manifests.mjs). */
const PACKAGE_NAME = 'trayshare';

function under(path: string, folder: string, caseless: boolean): boolean {
  const norm = (p: string) => {
    const slashes = caseless ? p.replaceAll('\\', '/') : p;
    const trimmed = slashes.endsWith('/') ? slashes : `${slashes}/`;
    return caseless ? trimmed.toLowerCase() : trimmed;
  };
  return norm(path).startsWith(norm(folder));
}

function homebrew(facts: InstallFacts): boolean {
  const appdirs = ['/Applications', posix.join(facts.home, 'Applications')];
  const inAppdir = appdirs.some((dir) =>
    under(facts.exePath, posix.join(dir, 'Trayshare.app'), false),
  );
  if (!inAppdir) return false;
  const prefixes = [facts.env.HOMEBREW_PREFIX, '/opt/homebrew', '/usr/local'].filter(
    (p): p is string => Boolean(p),
  );
  return prefixes.some((prefix) => facts.exists(posix.join(prefix, 'Caskroom', PACKAGE_NAME)));
}

function scoop(facts: InstallFacts): boolean {
  const { env } = facts;
  const roots = [
    env.SCOOP ?? win32.join(facts.home, 'scoop'),
    env.SCOOP_GLOBAL ?? (env.ProgramData ? win32.join(env.ProgramData, 'scoop') : null),
  ].filter((p): p is string => Boolean(p));
  if (roots.some((root) => under(facts.exePath, win32.join(root, 'apps', PACKAGE_NAME), true))) {
    return true;
  }
  // A root moved by Scoop's root_path setting: <root>\apps\trayshare\<version>\Trayshare.exe,
  // with Scoop itself installed beside it as <root>\apps\scoop.
  const appDir = win32.dirname(win32.dirname(facts.exePath));
  const appsDir = win32.dirname(appDir);
  return (
    win32.basename(appDir).toLowerCase() === PACKAGE_NAME &&
    win32.basename(appsDir).toLowerCase() === 'apps' &&
    facts.exists(win32.join(appsDir, 'scoop'))
  );
}

export function installMethod(facts: InstallFacts): InstallMethod {
  if (facts.platform === 'linux' && (facts.env.FLATPAK_ID || facts.exists('/.flatpak-info'))) {
    return 'flatpak';
  }
  if (facts.platform === 'darwin' && homebrew(facts)) return 'homebrew';
  if (facts.platform === 'win32' && scoop(facts)) return 'scoop';
  return 'installer';
}
