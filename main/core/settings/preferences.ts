// The person's preferences in the settings file; the desktop app applies them to the OS.
import type { CoreApi, PreferencesResult } from '../api';
import type { Preferences } from '../model';
import { parseArgs } from './input-rules';
import type { SettingsAccess } from './settings-access';

export async function setPreferences(
  { update, serial }: SettingsAccess,
  patch: Parameters<CoreApi['setPreferences']>[0],
): Promise<PreferencesResult> {
  const [checked] = parseArgs('setPreferences', [patch]);
  const clean = Object.fromEntries(
    Object.entries(checked).filter(([, value]) => value !== undefined),
  ) as Partial<Preferences>;
  if (clean.shortcut !== undefined) clean.shortcut = clean.shortcut.trim();
  if (clean.captureShortcut !== undefined) clean.captureShortcut = clean.captureShortcut.trim();
  return serial(async () =>
    update((s) => {
      s.preferences = { ...s.preferences, ...clean };
      return { preferences: { ...s.preferences } };
    }),
  );
}
