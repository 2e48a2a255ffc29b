// Plain-language notes about this desktop that the window shows, because the OS will not say
// them: GNOME hides tray icons without the AppIndicator extension, Wayland desktops approve
// global shortcuts themselves and keep no window on top, and a development run keeps its own
// data.

import type { AppImageIdentity } from './appimage-identity';

export interface DesktopFacts {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  isPackaged: boolean;
  userData: string;
  /** Electron's --ozone-platform switch, if given (app.commandLine.getSwitchValue). */
  ozonePlatform?: string;
  /** Run from an AppImage: what became of its desktop entry (appimage-identity.ts). */
  appImage?: AppImageIdentity;
}

function isGnome(env: DesktopFacts['env']): boolean {
  return (env.XDG_CURRENT_DESKTOP ?? '').split(':').some((d) => d.toUpperCase() === 'GNOME');
}

/**
 * Whether Electron runs as a Wayland client. Since Electron 38 it does in a Wayland session
 * unless started with --ozone-platform=x11, which runs it under XWayland
 * (https://www.electronjs.org/docs/latest/breaking-changes, "Removed:
 * ELECTRON_OZONE_PLATFORM_HINT environment variable").
 */
export function isWayland(env: DesktopFacts['env'], ozonePlatform = ''): boolean {
  if (ozonePlatform === 'x11') return false;
  if (ozonePlatform === 'wayland') return true;
  return env.XDG_SESSION_TYPE === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
}

export function desktopNotes(facts: DesktopFacts): string[] {
  const notes: string[] = [];
  if (facts.platform === 'linux' && isGnome(facts.env)) {
    notes.push(
      'No Trayshare icon in the top bar? GNOME shows tray icons only with the AppIndicator extension (on by default in Ubuntu): install gnome-shell-extension-appindicator and turn it on in Extensions. Meanwhile this window opens each time you start Trayshare, and has every action.',
    );
  }
  if (facts.platform === 'linux' && isWayland(facts.env, facts.ozonePlatform)) {
    notes.push(
      facts.appImage?.state === 'failed'
        ? `On Wayland the global shortcut needs Trayshare’s desktop entry, and this AppImage could not set it up (${facts.appImage.error}). For the shortcut, install the .deb package; meanwhile the tray menu and this window have every action.`
        : facts.isPackaged
          ? 'On Wayland your desktop decides about global shortcuts: when it asks, allow the Trayshare shortcut. If it never asks, set one in your desktop’s keyboard settings.'
          : 'On Wayland the global shortcut needs the installed app (its desktop entry); in a development run it may not work.',
    );
    // BrowserWindow's alwaysOnTop: "Not supported on Wayland (Linux)".
    notes.push(
      'On Wayland, apps cannot keep a window above the others, so other windows may cover the drop window. Drop files on this window instead: all of it takes drops.',
    );
  }
  if (!facts.isPackaged) {
    notes.push(
      `Development run: settings and queue are kept in ${facts.userData}, apart from an installed Trayshare.`,
    );
  }
  return notes;
}
