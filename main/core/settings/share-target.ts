// `trayshare send`'s target for the settings service: the same resolution as the app's intake
// (settings/target.ts), over the settings as they are read now.
import type { Preset, Workspace } from '../model';
import type { Settings } from './schema';
import { type ShareTarget, targetByName } from './target';

export type { ShareTarget } from './target';

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
  return targetByName(
    { findPreset, findWorkspace, workspace: (id) => read().workspaces.find((w) => w.id === id) },
    input,
  );
}
