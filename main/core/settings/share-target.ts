// `trayshare send`'s target: a preset by name, or a workspace by name plus channels as typed.

import { normaliseChannels } from '../../portable/channels';
import type { Preset, Workspace } from '../model';
import { fail, requireWorkspace } from './input-rules';
import type { Settings } from './schema';

export interface ShareTarget {
  workspace: Workspace;
  channels: string[];
  /** The preset's default comment, or '' without a preset. */
  comment: string;
  preset?: Preset;
}

export function shareTarget(
  {
    read,
    findPreset,
    findWorkspace,
  }: {
    read(): Settings;
    findPreset(nameOrId: string): Preset;
    findWorkspace(nameOrId: string): Workspace;
  },
  input: {
    preset?: string;
    workspace?: string;
    channels?: string;
  },
): ShareTarget {
  if (input.preset !== undefined) {
    if (input.workspace !== undefined || input.channels !== undefined) {
      fail('invalid_input', 'Give either a preset, or a workspace and channels, not both.');
    }
    const preset = findPreset(input.preset);
    const workspace = requireWorkspace(read(), preset.workspaceId);
    return {
      workspace,
      channels: preset.channels.map((c) => c.id),
      comment: preset.comment,
      preset,
    };
  }
  if (input.workspace === undefined || input.channels === undefined) {
    fail('invalid_input', 'Give a preset, or a workspace and channels.');
  }
  const workspace = findWorkspace(input.workspace);
  const channels = normaliseChannels(input.channels);
  if (!channels.ok) fail('invalid_channels', channels.error);
  return { workspace, channels: channels.channels, comment: '' };
}
