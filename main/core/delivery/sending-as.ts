// The workspace and token a queued item is sent with, read when its attempt starts (not when it
// was queued): the person may have changed either since.
import { type Renewal, RenewalError } from '../auth/renewal';
import type { FailureReason, QueueItem, Workspace } from '../model';
import { KeychainError } from '../secrets/secret-store';
import { keptCopiesSince } from '../settings/settings-file';
import type { SettingsService } from '../settings/settings-service';
import type { AttemptResult } from '../upload/attempt';

/** Where a workspace's token comes from: the keychain, unless the process was given one. */
export interface TokenSource {
  settings: Pick<SettingsService, 'workspace'>;
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
 * renewed before it expires (auth/renewal.ts).
 */
export function tokenLookup(
  settings: Pick<SettingsService, 'token'>,
  override: string | undefined,
  renewal?: Renewal,
): (workspace: Workspace) => Promise<string | null> {
  return async (workspace) => {
    if (override) return override;
    return renewal ? renewal.accessToken(workspace) : settings.token(workspace.id);
  };
}

function keychainFailure(error: KeychainError): FailureReason {
  // A keychain problem stops this workspace's queue like a refused token would: the items
  // wait, nothing is lost, and the person is told what to fix.
  return { class: 'credential', code: `keychain_${error.problem}`, message: error.message };
}

/** The workspace and token an item goes with, or why it cannot go now. */
export async function sendingAs(
  source: TokenSource,
  item: QueueItem,
): Promise<{ workspace: Workspace; token: string } | AttemptResult> {
  const workspace = source.settings.workspace(item.workspaceId);
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

function workspaceGone(dataDir: string, item: QueueItem): AttemptResult {
  // Not removed by the person but lost with a broken settings file set aside after the file
  // was queued: the upload waits (nothing is lost) until the workspace is back or it is
  // cancelled.
  const kept = keptCopiesSince(dataDir, item.createdAt)[0];
  if (kept) {
    return {
      kind: 'failed',
      reason: {
        class: 'credential',
        code: 'workspace_lost',
        message: `The workspace of this upload was in a settings file that was damaged and set aside as ${kept}. Put the workspace back (repair that copy and restore it as config.json), then try again; or cancel the upload.`,
      },
    };
  }
  return {
    kind: 'failed',
    reason: {
      class: 'input',
      code: 'workspace_removed',
      message: 'The workspace of this upload was removed.',
    },
  };
}
