// The preferences that live in the OS as well as in the settings file: the global shortcut,
// launch at login, the file-manager integration and the pinned drop window. The OS follows the
// file, and a shortcut the OS refuses is not saved.
import type {
  AppService,
  Preferences,
  PreferencesPatch,
  PreferencesResult,
} from '../../preload/contract';
import { shortcutLabel } from '../portable/shortcut-label';
import { errorMessage } from './desktop-state';
import type { NotificationContent } from './notifications';
import type { ShortcutManager } from './shortcut';
import type { Windows } from './windows';

interface PreferencesSync {
  /** Brings the OS in line with the preferences; only what changed since the last time. */
  apply(next: Preferences): Promise<void>;
  /** The window's setPreferences: the shortcut is tried in the OS before it is saved. */
  set(patch: PreferencesPatch): Promise<PreferencesResult>;
}

interface PreferencesSyncDeps {
  platform: NodeJS.Platform;
  service: Pick<AppService, 'setPreferences'>;
  shortcuts: () => ShortcutManager;
  windows: Pick<Windows, 'setDropWindowPinned'>;
  notify(content: NotificationContent): void;
  setLaunchAtLogin(enabled: boolean): Promise<void>;
  setFileManagerIntegration?(enabled: boolean): Promise<void>;
  /** Wayland: the desktop approves the shortcut itself (see DesktopAppDeps). */
  shortcutNeedsApproval?: boolean;
}

function applyShortcut(
  deps: PreferencesSyncDeps,
  prev: Preferences | undefined,
  next: Preferences,
): void {
  const result = deps.shortcuts().apply(next.shortcut);
  if (!result.ok) {
    deps.notify({
      title: 'Shortcut not available',
      body: result.error,
      act: { open: 'settings' },
    });
  } else if (deps.shortcutNeedsApproval && prev && next.shortcut !== '') {
    // Changed by the person (at start the window's desktop notes say it once).
    deps.notify({
      title: 'Approve the Trayshare shortcut',
      body: `Your desktop decides whether Trayshare may use ${shortcutLabel(next.shortcut, deps.platform === 'darwin')}: allow it when asked. If nothing asks, set a shortcut in your desktop's keyboard settings.`,
      act: { open: 'settings' },
    });
  }
}

async function applyPreferences(
  deps: PreferencesSyncDeps,
  prev: Preferences | undefined,
  next: Preferences,
): Promise<void> {
  const { platform, notify } = deps;
  if (!prev || prev.shortcut !== next.shortcut) applyShortcut(deps, prev, next);
  if (!prev || prev.launchAtLogin !== next.launchAtLogin) {
    await deps.setLaunchAtLogin(next.launchAtLogin).catch((error: unknown) =>
      notify({
        title: 'Launch at login could not be changed',
        body: errorMessage(error),
        act: { open: 'settings' },
        important: true,
      }),
    );
  }
  // At start only an installed integration is repaired; switching it off removes it.
  if (
    deps.setFileManagerIntegration &&
    (prev
      ? prev.fileManagerIntegration !== next.fileManagerIntegration
      : next.fileManagerIntegration)
  ) {
    await deps.setFileManagerIntegration(next.fileManagerIntegration).catch((error: unknown) =>
      notify({
        title: 'File manager integration failed',
        body: errorMessage(error),
        act: { open: 'settings' },
      }),
    );
  }
  if (platform !== 'darwin' && (!prev || prev.dropWindowPinned !== next.dropWindowPinned)) {
    deps.windows.setDropWindowPinned(next.dropWindowPinned);
  }
}

async function setPreferences(
  deps: PreferencesSyncDeps,
  apply: (next: Preferences) => Promise<void>,
  patch: PreferencesPatch,
): Promise<PreferencesResult> {
  const shortcuts = deps.shortcuts();
  const rest: PreferencesPatch = { ...patch };
  let shortcutError: string | undefined;
  const before = shortcuts.current();
  if (patch.shortcut !== undefined) {
    const result = shortcuts.apply(patch.shortcut);
    if (!result.ok) {
      shortcutError = result.error;
      delete rest.shortcut;
    }
  }
  let result: PreferencesResult;
  try {
    result = await deps.service.setPreferences(rest);
  } catch (error) {
    shortcuts.apply(before);
    throw error;
  }
  await apply(result.preferences);
  if (shortcutError) {
    deps.notify({
      title: 'Shortcut not available',
      body: shortcutError,
      act: { open: 'settings' },
    });
    return { ...result, shortcutError };
  }
  return result;
}

export function createPreferencesSync(deps: PreferencesSyncDeps): PreferencesSync {
  let applied: Preferences | undefined;
  const apply = (next: Preferences) => {
    const prev = applied;
    applied = next;
    return applyPreferences(deps, prev, next);
  };
  return { apply, set: (patch) => setPreferences(deps, apply, patch) };
}
