// The workspace and token a queued file goes with, read when its attempt starts (the person may
// have changed either since the file was queued), or why it cannot go now.
import type { QueueItem, Workspace } from '../model';
import { RenewalError } from '../renewal-error';
import { KeychainError } from '../secrets/secret-store';
import type { SettingsService, WorkspaceNow } from '../settings/settings-service';
import type { AttemptResult } from '../upload/attempt';
import { keychainFailure, workspaceGone } from './refusals';

/** Where a workspace's token comes from: the keychain, unless the process was given one. */
export interface TokenSource {
  settings: WorkspaceNow;
  /** The token to send with, or null when none is saved; throws KeychainError. */
  token(workspace: Workspace): Promise<string | null>;
  /** The user-data folder, where a damaged settings file is set aside. */
  dataDir: string;
  /**
   * A signed-in workspace's new access token after the service answered token_expired (absent
   * for a token given to the process, which cannot be renewed); throws RenewalError.
   */
  renew?: (workspace: Workspace, staleToken: string) => Promise<string>;
}

/**
 * The CLI's TRAYSHARE_TOKEN wins over the keychain, so scripts need no login. Otherwise the
 * keychain's, through the renewal when there is one: a signed-in workspace's access token is
 * renewed before it expires (auth/renewal.ts, handed in by the composition root).
 */
export function tokenLookup(
  settings: Pick<SettingsService, 'token'>,
  override: string | undefined,
  renewal?: { accessToken(workspace: Workspace): Promise<string | null> },
): (workspace: Workspace) => Promise<string | null> {
  return async (workspace) => {
    if (override) return override;
    // A pasted token is read as it always was: only a signed-in workspace's can be renewed.
    return renewal && workspace.auth === 'slack'
      ? renewal.accessToken(workspace)
      : settings.token(workspace);
  };
}

/**
 * The workspace and token an item goes with, or why it cannot go now. `started` is the workspace
 * its attempt started with, given for a completion, which reads no settings (see
 * settingsOncePerTurn in settings-service.ts).
 */
export async function sendingAs(
  source: TokenSource,
  item: QueueItem,
  started?: Workspace,
): Promise<{ workspace: Workspace; token: string } | AttemptResult> {
  // An attempt reads the workspace as it is now; a completion takes its attempts' workspace
  // unless a change event removed it since.
  const workspace =
    started === undefined
      ? source.settings.workspace(item.workspaceId)
      : source.settings.removed(item.workspaceId)
        ? undefined
        : started;
  if (!workspace) return workspaceGone(source.dataDir, item);
  let token: string | null;
  try {
    token = await source.token(workspace);
  } catch (error) {
    if (error instanceof KeychainError) return { kind: 'failed', reason: keychainFailure(error) };
    // The sign-in ran out (credential: the workspace waits for "Sign in again") or could not
    // be renewed just now (transient: tried again later). Nothing was sent either way.
    if (error instanceof RenewalError) return { kind: 'failed', reason: error.reason };
    throw error;
  }
  if (token === null) {
    // The token was removed after the files were queued: pause the workspace and ask, as for a
    // refused token, rather than failing files the person still wants to send.
    return {
      kind: 'failed',
      reason: {
        class: 'credential',
        code: 'no_token',
        message: `${workspace.name} has no token saved any more: add it in Settings to send the waiting files.`,
      },
    };
  }
  return { workspace, token };
}
