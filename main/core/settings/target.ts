// A share's target from what a person named: a saved preset, or a workspace and channels. The
// app names them by ID (the share sheet), the CLI by name (--preset, --workspace --channels);
// both come here so a preset means the same workspace, channels and comment everywhere.

import { normaliseChannels } from '../../portable/channels';
import type { Preset, Workspace } from '../model';
import { SettingsError } from './settings-error';

export interface ShareTarget {
  workspace: Workspace;
  channels: string[];
  /** The preset's default comment, or '' without a preset. */
  comment: string;
  preset?: Preset;
}

/** What the target is looked up in: the settings, by name or ID. */
export interface SavedTargets {
  /** By name or ID; throws SettingsError listing the names there are. */
  findPreset(nameOrId: string): Preset;
  findWorkspace(nameOrId: string): Workspace;
  workspace(id: string): Workspace | undefined;
}

/** The preset's destination and default comment, as a share uses them. */
export function presetDestination(preset: Preset): { channels: string[]; comment: string } {
  return { channels: preset.channels.map((c) => c.id), comment: preset.comment };
}

export function targetByName(
  saved: SavedTargets,
  input: { preset?: string; workspace?: string; channels?: string },
): ShareTarget {
  if (input.preset !== undefined) {
    if (input.workspace !== undefined || input.channels !== undefined) {
      throw new SettingsError(
        'invalid_input',
        'Give either a preset, or a workspace and channels, not both.',
      );
    }
    const preset = saved.findPreset(input.preset);
    const workspace = saved.workspace(preset.workspaceId);
    if (!workspace) throw new SettingsError('not_found', 'That workspace no longer exists.');
    return { workspace, ...presetDestination(preset), preset };
  }
  if (input.workspace === undefined || input.channels === undefined) {
    throw new SettingsError('invalid_input', 'Give a preset, or a workspace and channels.');
  }
  const workspace = saved.findWorkspace(input.workspace);
  const channels = normaliseChannels(input.channels);
  if (!channels.ok) throw new SettingsError('invalid_channels', channels.error);
  return { workspace, channels: channels.channels, comment: '' };
}
