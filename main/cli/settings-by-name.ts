// The settings changes the CLI makes by name, one per command: `login`, `logout` and
// `presets add`. The app's settings window works by id through the core API instead.
import type { ConnectionCheck, WorkspacePatch } from '../core/api';
import type { Preset, Protocol, Workspace } from '../core/model';
import { SettingsError, type SettingsErrorCode } from '../core/settings/settings-error';
import type { SettingsService, UpdatedWorkspace } from '../core/settings/settings-service';
import { normaliseChannels } from '../portable/channels';
import { checkToken } from '../portable/credentials';

interface LoginResult {
  workspace: Workspace;
  created: boolean;
  /** auth.test where the service offers it; otherwise says the token cannot be checked. */
  connection: ConnectionCheck;
}

function fail(code: SettingsErrorCode, message: string): never {
  throw new SettingsError(code, message);
}

/**
 * `trayshare login`: checks the token first (a URL is refused before anything is saved),
 * creates the workspace (baseUrl needed) or updates it, stores the token, and tests the
 * connection. A new workspace whose token could not be stored is removed again.
 */
export async function login(
  settings: SettingsService,
  input: { workspace: string; baseUrl?: string; protocol?: Protocol; token: string },
): Promise<LoginResult> {
  const tokenCheck = checkToken(input.token);
  if (!tokenCheck.ok) fail(tokenCheck.code as SettingsErrorCode, tokenCheck.message);
  const existing = settings.workspaceByName(input.workspace);
  let workspace: Workspace;
  if (existing) {
    const patch: WorkspacePatch = {};
    if (input.baseUrl !== undefined) patch.baseUrl = input.baseUrl;
    if (input.protocol !== undefined) patch.protocol = input.protocol;
    workspace =
      Object.keys(patch).length > 0 ? await settings.updateWorkspace(existing.id, patch) : existing;
  } else {
    if (input.baseUrl === undefined) {
      fail(
        'needs_base_url',
        `New workspace "${input.workspace}": give its base URL (such as https://slack.com).`,
      );
    }
    workspace = await settings.addWorkspace({
      name: input.workspace,
      baseUrl: input.baseUrl,
      ...(input.protocol ? { protocol: input.protocol } : {}),
    });
  }
  try {
    // For the address this login gave or found: not kept if another process moves it meanwhile.
    await settings.setToken(workspace.id, input.token, workspace.baseUrl);
  } catch (error) {
    // A workspace created just now without its token would only be in the way.
    if (!existing) await settings.removeWorkspace(workspace.id).catch(() => undefined);
    throw error;
  }
  const { tokenCleared: _ignored, ...plain } = workspace as UpdatedWorkspace;
  return {
    workspace: plain,
    created: !existing,
    connection: await settings.testConnection(workspace.id),
  };
}

/** `trayshare logout`: removes the workspace's token (the workspace and presets stay). */
export async function logout(
  settings: SettingsService,
  name: string,
): Promise<{ workspace: Workspace; removed: boolean }> {
  const workspace = settings.findWorkspace(name);
  return { workspace, removed: await settings.clearToken(workspace.id) };
}

/** `trayshare presets add`: channels as typed ("C1, C2"), workspace by name or id. */
export async function addPresetFromText(
  settings: SettingsService,
  input: {
    name: string;
    workspace: string;
    channels: string;
    comment?: string;
    makeDefault?: boolean;
  },
): Promise<Preset> {
  const workspace = settings.findWorkspace(input.workspace);
  const channels = normaliseChannels(input.channels);
  if (!channels.ok) fail('invalid_channels', channels.error);
  const preset = await settings.addPreset({
    name: input.name,
    workspaceId: workspace.id,
    channels: channels.channels.map((id) => ({ id })),
    comment: input.comment ?? '',
  });
  if (input.makeDefault) await settings.setDefaultPreset(preset.id);
  return preset;
}
