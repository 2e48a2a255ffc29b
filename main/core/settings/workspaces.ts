// Workspaces in the settings file: added, edited, removed with their presets and token, and
// found by name. Their tokens are in workspace-tokens.ts.
import { randomUUID } from 'node:crypto';
import type { WorkspaceInput, WorkspacePatch } from '../api';
import type { Preset, Workspace } from '../model';
import { plural } from '../plural';
import { DEFAULT_MAX_FILE_BYTES } from './defaults';
import {
  checkedBaseUrl,
  fail,
  names,
  parseArgs,
  refuseTokenShaped,
  requireWorkspace,
  sameName,
  trimmedName,
} from './input-rules';
import type { Settings } from './schema';
import type { SettingsAccess } from './settings-access';
import { forgetToken } from './workspace-tokens';

export interface UpdatedWorkspace extends Workspace {
  /** The base URL moved to another origin, so the saved token was removed: ask for a new one. */
  tokenCleared: boolean;
}

export interface RemovedWorkspace {
  workspace: Workspace;
  /** Presets that shared to this workspace, removed with it. */
  presetsRemoved: Preset[];
  /** 'unknown' when there is no keychain to ask (no Secret Service): no token can be stored there. */
  token: 'removed' | 'none' | 'unknown';
  /** One sentence saying all of the above. */
  message: string;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

function uniqueWorkspaceName(settings: Settings, name: string, except?: string): void {
  const other = settings.workspaces.find((w) => w.id !== except && sameName(w.name, name));
  if (other) fail('duplicate_name', `There is already a workspace named "${other.name}".`);
}

function findWorkspace({ read }: SettingsAccess, nameOrId: string): Workspace {
  const all = read().workspaces;
  return (
    all.find((w) => w.id === nameOrId) ??
    all.find((w) => sameName(w.name, nameOrId.trim())) ??
    fail('not_found', `No workspace named "${nameOrId}" (workspaces: ${names(all)}).`)
  );
}

async function addWorkspace(
  { update, serial }: SettingsAccess,
  input: WorkspaceInput,
): Promise<Workspace> {
  const [checked] = parseArgs('addWorkspace', [input]);
  refuseTokenShaped(checked);
  const name = trimmedName(checked.name, 'workspace');
  const baseUrl = checkedBaseUrl(checked.baseUrl);
  return serial(async () =>
    update((s) => {
      uniqueWorkspaceName(s, name);
      const workspace: Workspace = {
        id: randomUUID(),
        name,
        baseUrl,
        protocol: checked.protocol ?? 'files.upload',
        maxFileBytes: DEFAULT_MAX_FILE_BYTES,
      };
      s.workspaces.push(workspace);
      return workspace;
    }),
  );
}

async function updateWorkspace(
  access: SettingsAccess,
  id: string,
  patch: WorkspacePatch,
): Promise<UpdatedWorkspace> {
  const { read, update, serial } = access;
  const [wid, checked] = parseArgs('updateWorkspace', [id, patch]);
  refuseTokenShaped(checked);
  const name = checked.name === undefined ? undefined : trimmedName(checked.name, 'workspace');
  const baseUrl = checked.baseUrl === undefined ? undefined : checkedBaseUrl(checked.baseUrl);
  return serial(async () => {
    const current = requireWorkspace(read(), wid);
    if (name !== undefined) uniqueWorkspaceName(read(), name, wid);
    // A token is issued for one service: it must never follow the workspace to another origin.
    const moved = baseUrl !== undefined && originOf(baseUrl) !== originOf(current.baseUrl);
    refuseMoveWhileSignedIn(current, baseUrl);
    if (moved) await forgetToken(access, current);
    const updated = update((s) => {
      const w = requireWorkspace(s, wid);
      // Again on the file as it is written: another process may have signed it in meanwhile.
      refuseMoveWhileSignedIn(w, baseUrl);
      if (name !== undefined) {
        uniqueWorkspaceName(s, name, wid);
        w.name = name;
      }
      if (baseUrl !== undefined) w.baseUrl = baseUrl;
      if (checked.protocol !== undefined) w.protocol = checked.protocol;
      if (checked.maxFileBytes !== undefined) w.maxFileBytes = checked.maxFileBytes;
      return { ...w };
    });
    return { ...updated, tokenCleared: moved };
  });
}

/** A sign-in is ended at its own service, never left alive there (sign out does that). */
function refuseMoveWhileSignedIn(workspace: Workspace, baseUrl: string | undefined): void {
  if (baseUrl === undefined || originOf(baseUrl) === originOf(workspace.baseUrl)) return;
  if (workspace.auth === 'slack' && workspace.userName !== undefined) {
    fail(
      'signed_in_elsewhere',
      `${workspace.name} is signed in at ${originOf(workspace.baseUrl)}: sign out of it first (that ends the sign-in there), or add ${originOf(baseUrl)} as another workspace.`,
    );
  }
}

async function removeWorkspaceWithSummary(
  access: SettingsAccess,
  id: string,
): Promise<RemovedWorkspace> {
  const { read, update, serial } = access;
  const [wid] = parseArgs('removeWorkspace', [id]);
  return serial(async () => {
    const workspace = requireWorkspace(read(), wid);
    // The token goes first: if the keychain refuses, the workspace stays, so the token is
    // never left behind without a way to remove it.
    const token = await forgetToken(access, workspace);
    const presetsRemoved = update((s) => {
      const removed = s.presets.filter((p) => p.workspaceId === wid);
      s.workspaces = s.workspaces.filter((w) => w.id !== wid);
      s.presets = s.presets.filter((p) => p.workspaceId !== wid);
      if (removed.some((p) => p.id === s.defaultPresetId)) s.defaultPresetId = null;
      return removed;
    });
    const tokenText = {
      removed: 'its token was deleted from the keychain',
      none: 'it had no token in the keychain',
      unknown: 'no keychain was reachable to check for a token',
    }[token];
    const presetText =
      presetsRemoved.length === 0
        ? 'it had no presets'
        : `its ${plural(presetsRemoved.length, 'preset', 'presets')} (${names(presetsRemoved)}) were removed`;
    return {
      workspace,
      presetsRemoved,
      token,
      message: `Removed workspace ${workspace.name}: ${tokenText}, and ${presetText}.`,
    };
  });
}

/** The workspace methods of the settings service, on this file. */
export function workspaces(access: SettingsAccess) {
  return {
    findWorkspace: (nameOrId: string) => findWorkspace(access, nameOrId),
    addWorkspace: (input: WorkspaceInput) => addWorkspace(access, input),
    updateWorkspace: (id: string, patch: WorkspacePatch) => updateWorkspace(access, id, patch),
    removeWorkspaceWithSummary: (id: string) => removeWorkspaceWithSummary(access, id),
  };
}
