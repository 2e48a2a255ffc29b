// Whether this build updates itself (electron-updater) or through whatever installed it. This is
// electron-updater's own rule, made explicit so the app can say why it never checks and so the
// rule is tested here rather than inside the updater:
// - AppUpdater.isUpdaterActive(): an unpackaged run never checks;
// - main.js (doLoadAutoUpdater) picks DebUpdater/RpmUpdater/PacmanUpdater from
//   resources/package-type, which electron-builder's FpmTarget writes into deb, rpm and pacman
//   packages: those would install through the system's package manager (with pkexec), but
//   their owners update them with apt/dnf/pacman, so we leave them to it;
// - AppImageUpdater.isUpdaterActive(): on Linux only an AppImage (the APPIMAGE variable its
//   runtime sets) updates itself, and a snap (SNAP) never does;
// - a Windows portable build (PORTABLE_EXECUTABLE_FILE, set by electron-builder's portable
//   launcher) has no installer to run.
// And where a package manager installed it (install-method.ts): Flatpak and Scoop keep their
// own copy, which an installer run by the app would leave behind or fight, so those update
// through the manager; the Homebrew cask says `auto_updates true`, so the app updates itself and
// About adds the brew command as well.

import type { InstallMethod } from './install-method';

export interface BuildFacts {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** The contents of resources/package-type ('deb', 'rpm', 'pacman'), null when absent. */
  packageType: string | null;
  env: Readonly<Record<string, string | undefined>>;
  /** What installed this copy (install-method.ts). */
  install: InstallMethod;
}

export type UpdateSource =
  | {
      updatesItself: true;
      /** How else it can be updated, for Settings → About (a package manager's command). */
      note?: string;
    }
  | {
      updatesItself: false;
      /** Why, for Settings → About. */
      reason: string;
    };

const PACKAGE_MANAGERS: Readonly<Record<string, string>> = {
  deb: 'apt or your package manager',
  rpm: 'dnf or your package manager',
  pacman: 'pacman or your package manager',
};

export function updateSource(facts: BuildFacts): UpdateSource {
  if (!facts.isPackaged) {
    return {
      updatesItself: false,
      reason: 'This is a development run: it updates with your checkout, not by itself.',
    };
  }
  // Before the package type: the Flatpak repackages the deb, whose package-type file it keeps.
  if (facts.install === 'flatpak') {
    return {
      updatesItself: false,
      reason: 'Installed with Flatpak: update it with flatpak update, or in your software centre.',
    };
  }
  if (facts.install === 'scoop') {
    return {
      updatesItself: false,
      reason: 'Installed with Scoop: update it with scoop update trayshare.',
    };
  }
  if (facts.platform === 'linux') {
    const type = facts.packageType?.trim() ?? '';
    const manager = PACKAGE_MANAGERS[type];
    if (manager) {
      return {
        updatesItself: false,
        reason: `Installed from the ${type} package: update it with ${manager}.`,
      };
    }
    if (facts.env.SNAP) {
      return { updatesItself: false, reason: 'Installed as a snap: snapd keeps it up to date.' };
    }
    if (!facts.env.APPIMAGE) {
      return {
        updatesItself: false,
        reason: 'Only the AppImage updates itself: update this copy the way it was installed.',
      };
    }
  }
  if (facts.platform === 'win32' && facts.env.PORTABLE_EXECUTABLE_FILE) {
    return {
      updatesItself: false,
      reason: 'The portable build does not update itself: download the new one.',
    };
  }
  if (facts.install === 'homebrew') {
    return {
      updatesItself: true,
      note: 'Installed with Homebrew: it updates itself, or run brew upgrade --cask trayshare.',
    };
  }
  return { updatesItself: true };
}
