// Presets in the settings file: a name, a workspace and its channels, a default comment, the
// person's order and at most one default.
import { randomUUID } from 'node:crypto';
import type { PresetInput, PresetPatch } from '../api';
import type { Preset } from '../model';
import {
  checkedChannels,
  fail,
  names,
  parseArgs,
  refuseTokenShaped,
  requirePreset,
  requireWorkspace,
  sameName,
  trimmedName,
} from './input-rules';
import type { Settings } from './schema';
import type { SettingsAccess } from './settings-access';

function uniquePresetName(settings: Settings, name: string, except?: string): void {
  const other = settings.presets.find((p) => p.id !== except && sameName(p.name, name));
  if (other) fail('duplicate_name', `There is already a preset named "${other.name}".`);
}

function findPreset({ read }: SettingsAccess, nameOrId: string): Preset {
  const all = read().presets;
  return (
    all.find((p) => p.id === nameOrId) ??
    all.find((p) => sameName(p.name, nameOrId.trim())) ??
    fail('not_found', `No preset named "${nameOrId}" (presets: ${names(all)}).`)
  );
}

async function addPreset({ update, serial }: SettingsAccess, input: PresetInput): Promise<Preset> {
  const [checked] = parseArgs('addPreset', [input]);
  refuseTokenShaped(checked);
  const name = trimmedName(checked.name, 'preset');
  const channels = checkedChannels(checked.channels);
  return serial(async () =>
    update((s) => {
      requireWorkspace(s, checked.workspaceId);
      uniquePresetName(s, name);
      const preset: Preset = {
        id: randomUUID(),
        name,
        workspaceId: checked.workspaceId,
        channels,
        comment: checked.comment,
      };
      s.presets.push(preset);
      // The only preset is the obvious default; later ones never take over silently.
      if (s.presets.length === 1) s.defaultPresetId = preset.id;
      return preset;
    }),
  );
}

async function updatePreset(
  { update, serial }: SettingsAccess,
  id: string,
  patch: PresetPatch,
): Promise<Preset> {
  const [pid, checked] = parseArgs('updatePreset', [id, patch]);
  refuseTokenShaped(checked);
  const name = checked.name === undefined ? undefined : trimmedName(checked.name, 'preset');
  const channels = checked.channels === undefined ? undefined : checkedChannels(checked.channels);
  return serial(async () =>
    update((s) => {
      const p = requirePreset(s, pid);
      if (name !== undefined) {
        uniquePresetName(s, name, pid);
        p.name = name;
      }
      if (checked.workspaceId !== undefined) {
        requireWorkspace(s, checked.workspaceId);
        p.workspaceId = checked.workspaceId;
      }
      if (channels !== undefined) p.channels = channels;
      if (checked.comment !== undefined) p.comment = checked.comment;
      return { ...p };
    }),
  );
}

async function removePreset({ update, serial }: SettingsAccess, id: string): Promise<void> {
  const [pid] = parseArgs('removePreset', [id]);
  return serial(async () =>
    update((s) => {
      requirePreset(s, pid);
      s.presets = s.presets.filter((p) => p.id !== pid);
      // Never move the default to another preset: a drop would go to channels nobody chose.
      if (s.defaultPresetId === pid) s.defaultPresetId = null;
    }),
  );
}

async function reorderPresets({ update, serial }: SettingsAccess, ids: string[]): Promise<void> {
  const [order] = parseArgs('reorderPresets', [ids]);
  if (new Set(order).size !== order.length) fail('invalid_input', 'A preset is listed twice.');
  await serial(async () =>
    update((s) => {
      const byId = new Map(s.presets.map((p) => [p.id, p]));
      for (const pid of order)
        if (!byId.has(pid)) fail('not_found', 'A preset in that order no longer exists.');
      // Presets missing from the list (added meanwhile, e.g. by the CLI) keep their place at the end.
      const listed = order.map((pid) => byId.get(pid) as Preset);
      s.presets = [...listed, ...s.presets.filter((p) => !order.includes(p.id))];
    }),
  );
}

async function setDefaultPreset(
  { update, serial }: SettingsAccess,
  id: string | null,
): Promise<void> {
  const [pid] = parseArgs('setDefaultPreset', [id]);
  await serial(async () =>
    update((s) => {
      if (pid !== null) requirePreset(s, pid);
      s.defaultPresetId = pid;
    }),
  );
}

/** The preset methods of the settings service, on this file. */
export function presets(access: SettingsAccess) {
  return {
    findPreset: (nameOrId: string) => findPreset(access, nameOrId),
    addPreset: (input: PresetInput) => addPreset(access, input),
    updatePreset: (id: string, patch: PresetPatch) => updatePreset(access, id, patch),
    removePreset: (id: string) => removePreset(access, id),
    reorderPresets: (ids: string[]) => reorderPresets(access, ids),
    setDefaultPreset: (id: string | null) => setDefaultPreset(access, id),
  };
}
