// A workspace's token: kept in the keychain only, for the origin it was checked against
// (secrets/workspace-secrets.ts), checked for its shape before it is saved, and asked of the
// service (auth.test) when the person tests the connection. Nothing here writes a token anywhere
// but the keychain.

import { checkToken } from '../../portable/credentials';
import type { ConnectionCheck } from '../api';
import { KeychainError } from '../secrets/secret-store';
import { originOf, type TokenHome, workspaceSecrets } from '../secrets/workspace-secrets';
import { authTest } from '../upload/auth-test';
import type { Transport } from '../upload/transport';
import { fail, parseArgs, requireWorkspace } from './input-rules';
import type { Settings } from './schema';
import type { SettingsAccess } from './settings-access';
import type { SettingsErrorCode } from './settings-error';

/**
 * Who the service says the token is for, from auth.test: "as alice in Acme". Testing the
 * connection and saving a token (token-save.ts) say it the same way, as the settings window does.
 */
export function tokenHolder(result: { user?: string; team?: string }): string {
  return [result.user && `as ${result.user}`, result.team && `in ${result.team}`]
    .filter(Boolean)
    .join(' ');
}

/**
 * Where a save or a sign-in that was checked against `checkedAt` must stop: the workspace is gone,
 * or its address moved to another origin meanwhile (this process or another, such as the CLI).
 * Asked inside the step that writes the keychain, and again once it has written.
 */
export function refuseIfMoved(
  settings: Settings,
  workspaceId: string,
  checkedAt: string,
  during: string,
): void {
  const now = settings.workspaces.find((w) => w.id === workspaceId);
  if (!now) fail('not_found', `The workspace was removed while ${during}; nothing was saved.`);
  if (originOf(now.baseUrl) !== originOf(checkedAt)) {
    fail(
      'workspace_moved',
      `${now.name}'s address changed to ${originOf(now.baseUrl)} while ${during} at ${originOf(checkedAt)}; nothing was saved.`,
    );
  }
}

/** Removes a workspace's tokens; with no keychain at all there is nothing it could have kept. */
export async function forgetToken(
  access: SettingsAccess,
  workspace: TokenHome,
): Promise<'removed' | 'none' | 'unknown'> {
  try {
    // A signed-in workspace's refresh token goes with it.
    return (await workspaceSecrets(access.secrets).forget(workspace)) ? 'removed' : 'none';
  } catch (error) {
    if (error instanceof KeychainError && error.problem === 'no-secret-service') return 'unknown';
    throw error;
  }
}

export function workspaceTokens(access: SettingsAccess, transport: Transport) {
  const { read, serial, emit } = access;
  const tokens = workspaceSecrets(access.secrets);

  /**
   * Saves the token for the workspace's origin. `checkedAt` is the address the token was checked
   * against (auth.test) or typed for: when the workspace has moved to another origin since,
   * nothing is saved, and the keychain is left as it was.
   */
  async function setToken(workspaceId: string, token: string, checkedAt?: string): Promise<void> {
    const [wid, value] = parseArgs('setToken', [workspaceId, token]);
    const check = checkToken(value);
    if (!check.ok) fail(check.code as SettingsErrorCode, check.message);
    requireWorkspace(read(), wid);
    const during = 'the token was being checked';
    await serial(async () => {
      const workspace = requireWorkspace(read(), wid);
      const origin = checkedAt ?? workspace.baseUrl;
      refuseIfMoved(read(), wid, origin, during);
      const undo = await tokens.saveAccess(workspace, value.trim());
      // Another process may have moved it between the read above and the write: asked again,
      // so a token is never left kept for a workspace that now lives elsewhere.
      try {
        refuseIfMoved(read(), wid, origin, during);
      } catch (error) {
        await undo();
        throw error;
      }
    });
    emit();
  }

  async function clearToken(workspaceId: string): Promise<boolean> {
    const [wid] = parseArgs('clearToken', [workspaceId]);
    requireWorkspace(read(), wid);
    const removed = await serial(() => tokens.forget(requireWorkspace(read(), wid)));
    emit();
    return removed;
  }

  async function testConnection(workspaceId: string): Promise<ConnectionCheck> {
    const [wid] = parseArgs('testConnection', [workspaceId]);
    const workspace = requireWorkspace(read(), wid);
    let token: string | null;
    try {
      token = await tokens.accessToken(workspace);
    } catch (error) {
      if (error instanceof KeychainError) {
        return { ok: false, checked: false, message: error.message };
      }
      throw error;
    }
    const tokenCheck = checkToken(token);
    if (!tokenCheck.ok) {
      return { ok: false, checked: false, message: `${workspace.name}: ${tokenCheck.message}` };
    }
    // checkToken refused a missing or blank token above.
    const result = await authTest(workspace.baseUrl, (token ?? '').trim(), transport);
    if (result.ok) {
      const who = tokenHolder(result);
      return {
        ok: true,
        checked: true,
        message: `${workspace.name}: the service accepted the token${who ? ` (${who})` : ''}.`,
        ...(result.user ? { user: result.user } : {}),
        ...(result.team ? { team: result.team } : {}),
      };
    }
    if (!result.checked) {
      return {
        ok: false,
        checked: false,
        message: `${workspace.name}: this service does not offer auth.test, so the token cannot be checked without uploading a file. It was saved; the first upload will tell.`,
      };
    }
    return {
      ok: false,
      checked: true,
      message: `${workspace.name}: ${result.reason.message}`,
      ...(result.reason.class === 'credential' ? { refused: true } : {}),
    };
  }

  return { setToken, clearToken, testConnection };
}
