// The preferences that live in the OS as well as in the settings file: the global shortcuts
// (share, capture), launch at login, the file-manager integration and the pinned drop window. The OS follows the
// file, and a shortcut the OS refuses is not saved.

import type {
  AppService,
  Preferences,
  PreferencesPatch,
  PreferencesResult,
} from '../../preload/contract';
import { errorMessage } from '../portable/error-message';
import { shortcutLabel } from '../portable/shortcut-label';
import type { ShortcutManager } from './global-shortcut';
import type { NotificationContent } from './notifications';
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
  /** The capture shortcut's manager (absent where this build cannot capture). */
  captureShortcuts?: () => ShortcutManager;
  windows: Pick<Windows, 'setDropWindowPinned'>;
  notify(content: NotificationContent): void;
  setLaunchAtLogin(enabled: boolean): Promise<void>;
  setFileManagerIntegration?(enabled: boolean): Promise<void>;
  /** Wayland: the desktop approves the shortcut itself (see DesktopAppDeps). */
  shortcutNeedsApproval?: boolean;
}

type ShortcutKey = 'shortcut' | 'captureShortcut';
type ShortcutError = 'shortcutError' | 'captureShortcutError';

/** Each global shortcut: its preference, the answer's error field, its manager. */
function shortcutSlots(deps: PreferencesSyncDeps) {
  const slots: { key: ShortcutKey; error: ShortcutError; manager: ShortcutManager }[] = [
    { key: 'shortcut', error: 'shortcutError', manager: deps.shortcuts() },
  ];
  const capture = deps.captureShortcuts?.();
  if (capture)
    slots.push({ key: 'captureShortcut', error: 'captureShortcutError', manager: capture });
  return slots;
}

function applyShortcut(
  deps: PreferencesSyncDeps,
  slot: ReturnType<typeof shortcutSlots>[number],
  prev: Preferences | undefined,
  next: Preferences,
): void {
  const accelerator = next[slot.key];
  const result = slot.manager.apply(accelerator);
  if (!result.ok) {
    deps.notify({
      title: 'Shortcut not available',
      body: result.error,
      act: { open: 'settings' },
    });
  } else if (deps.shortcutNeedsApproval && prev && accelerator !== '') {
    // Changed by the person (at start the window's desktop notes say it once).
    deps.notify({
      title: 'Approve the Trayshare shortcut',
      body: `Your desktop decides whether Trayshare may use ${shortcutLabel(accelerator, deps.platform === 'darwin')}: allow it when asked. If nothing asks, set a shortcut in your desktop's keyboard settings.`,
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
  for (const slot of shortcutSlots(deps)) {
    if (!prev || prev[slot.key] !== next[slot.key]) applyShortcut(deps, slot, prev, next);
  }
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

/** One shortcut of the patch tried in the OS first: its error, or null (then it is saved). */
function tryShortcut(
  slot: ReturnType<typeof shortcutSlots>[number],
  patch: PreferencesPatch,
  others: readonly string[],
): string | null {
  const wanted = patch[slot.key];
  if (wanted === undefined) return null;
  // The same keys cannot do two things; the OS would only say another app holds them.
  if (wanted.trim() !== '' && others.includes(wanted.trim())) {
    return `${wanted.trim()} is already Trayshare's other shortcut. Choose different keys.`;
  }
  const result = slot.manager.apply(wanted);
  return result.ok ? null : result.error;
}

async function setPreferences(
  deps: PreferencesSyncDeps,
  apply: (next: Preferences) => Promise<void>,
  patch: PreferencesPatch,
): Promise<PreferencesResult> {
  const slots = shortcutSlots(deps);
  const rest: PreferencesPatch = { ...patch };
  const before = slots.map((slot) => slot.manager.current());
  const errors: Partial<Record<ShortcutError, string>> = {};
  for (const slot of slots) {
    const others = slots.filter((o) => o !== slot).map((o) => o.manager.current());
    const error = tryShortcut(slot, patch, others);
    if (error === null) continue;
    errors[slot.error] = error;
    delete rest[slot.key];
  }
  let result: PreferencesResult;
  try {
    result = await deps.service.setPreferences(rest);
  } catch (error) {
    for (const [i, slot] of slots.entries()) slot.manager.apply(before[i] ?? '');
    throw error;
  }
  await apply(result.preferences);
  for (const error of Object.values(errors)) {
    deps.notify({ title: 'Shortcut not available', body: error, act: { open: 'settings' } });
  }
  return { ...result, ...errors };
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
