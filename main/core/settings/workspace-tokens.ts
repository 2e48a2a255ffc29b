// A workspace's token: kept in the keychain only, checked for its shape before it is saved, and
// asked of the service (auth.test) when the person tests the connection. Nothing here writes
// a token anywhere but the keychain.

import { checkToken } from '../../portable/credentials';
import type { ConnectionCheck } from '../api';
import { KeychainError } from '../secrets/secret-store';
import { authTest } from '../upload/auth-test';
import type { Transport } from '../upload/transport';
import { fail, parseArgs, requireWorkspace } from './input-rules';
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

/** Removes a workspace's token; with no keychain at all there is nothing it could have kept. */
export async function forgetToken(
  access: SettingsAccess,
  workspaceId: string,
): Promise<'removed' | 'none' | 'unknown'> {
  try {
    // A signed-in workspace's refresh token goes with it (auth/token-store.ts names it).
    await access.secrets.delete(`${workspaceId}:refresh`);
    return (await access.secrets.delete(workspaceId)) ? 'removed' : 'none';
  } catch (error) {
    if (error instanceof KeychainError && error.problem === 'no-secret-service') return 'unknown';
    throw error;
  }
}

export function workspaceTokens(access: SettingsAccess, transport: Transport) {
  const { read, serial, emit, secrets } = access;

  async function setToken(workspaceId: string, token: string): Promise<void> {
    const [wid, value] = parseArgs('setToken', [workspaceId, token]);
    const check = checkToken(value);
    if (!check.ok) fail(check.code as SettingsErrorCode, check.message);
    requireWorkspace(read(), wid);
    await serial(() => secrets.set(wid, value.trim()));
    emit();
  }

  async function clearToken(workspaceId: string): Promise<boolean> {
    const [wid] = parseArgs('clearToken', [workspaceId]);
    requireWorkspace(read(), wid);
    const removed = await serial(() => secrets.delete(wid));
    emit();
    return removed;
  }

  async function testConnection(workspaceId: string): Promise<ConnectionCheck> {
    const [wid] = parseArgs('testConnection', [workspaceId]);
    const workspace = requireWorkspace(read(), wid);
    let token: string | null;
    try {
      token = await secrets.get(wid);
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
