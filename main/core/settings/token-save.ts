// Saving a token the way Settings does it: asked of the service first (auth.test), kept only
// if the service did not refuse it, and said who it is for. A token that cannot be checked
// (no auth.test, no answer) is kept, and the answer says so. A workspace that moved to another
// address while auth.test answered keeps nothing (save refuses it), and the answer says so.
import { checkToken } from '../../portable/credentials';
import type { TokenSaved } from '../api';
import type { Workspace } from '../model';
import { RefusedError } from '../refused-error';
import { authTest } from '../upload/auth-test';
import type { Transport } from '../upload/transport';
import { SettingsError } from './settings-error';
import { tokenHolder } from './workspace-tokens';

export async function checkAndSaveToken(
  workspace: Workspace,
  token: string,
  deps: { transport: Transport; save: (token: string) => Promise<void> },
): Promise<TokenSaved> {
  const trimmed = token.trim();
  const format = checkToken(trimmed);
  if (!format.ok) throw new RefusedError(format.message);
  const result = await authTest(workspace.baseUrl, trimmed, deps.transport);
  if (!result.ok && result.checked && result.reason.class === 'credential') {
    // The old token (if any) stays: a refused one would only stop the queue.
    return {
      saved: false,
      ok: false,
      checked: true,
      refused: true,
      message: `The service refused this token (${result.reason.code}), so it was not saved. ${result.reason.message}`,
    };
  }
  try {
    await deps.save(trimmed);
  } catch (error) {
    if (!(error instanceof SettingsError && error.code === 'workspace_moved')) throw error;
    return { saved: false, ok: false, checked: false, message: error.message };
  }
  if (result.ok) {
    const who = tokenHolder(result);
    return {
      saved: true,
      ok: true,
      checked: true,
      message: `Token saved. Connected to ${workspace.name}${who ? ` ${who}` : ''}.`,
      ...(result.user ? { user: result.user } : {}),
      ...(result.team ? { team: result.team } : {}),
    };
  }
  return {
    saved: true,
    ok: false,
    checked: false,
    message: result.checked
      ? `Token saved, but it could not be checked: ${result.reason.message}`
      : 'Token saved. This service cannot check a token without uploading; the first upload will tell.',
  };
}
