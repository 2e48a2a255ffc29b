// Sign out: the token is revoked at the service (auth.revoke, which ends the whole sign-in, its
// refresh token too), both tokens leave the keychain, and the settings forget the expiry and
// who signed in. Refused, with the count, while files still wait for the workspace, unless the
// person said to go ahead (they then wait for a new sign-in or token). When the service cannot
// revoke it (unreachable, or an error), the tokens still leave this computer, and the answer
// says plainly that the sign-in may still work at the service until it expires.
import { isActiveState } from '../../portable/item-states';
import type { SignOutOptions, SignOutResult } from '../api';
import type { Workspace } from '../model';
import type { UploadQueue } from '../queue/upload-queue';
import { RefusedError } from '../refused-error';
import type { SecretStore } from '../secrets/secret-store';
import { workspaceSecrets } from '../secrets/workspace-secrets';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import { revokeToken } from './oauth-client';
import type { Renewal } from './renewal';

export function openSignOut(deps: {
  settings: SettingsService;
  secrets: SecretStore;
  transport: Transport;
  queue: Pick<UploadQueue, 'list'>;
  renewal?: Renewal;
  onSignedOut(workspaceId: string): void;
}) {
  return async function signOut(
    workspaceId: string,
    options: SignOutOptions = {},
  ): Promise<SignOutResult> {
    const workspace = deps.settings.workspace(workspaceId);
    if (!workspace) throw new RefusedError('That workspace no longer exists.');
    const waiting = deps.queue
      .list()
      .filter((i) => i.workspaceId === workspaceId && isActiveState(i.state)).length;
    if (waiting > 0 && options.evenIfWaiting !== true) return { ok: false, waiting };
    const failure = await revokeAtService(deps, workspace);
    await workspaceSecrets(deps.secrets).forget(workspace);
    deps.settings.clearSignIn(workspaceId);
    deps.onSignedOut(workspaceId);
    const host = new URL(workspace.baseUrl).host;
    if (failure === undefined) {
      return {
        ok: true,
        revoked: true,
        message: `Signed out of ${workspace.name}: the sign-in was ended at ${host} and both tokens removed from this computer.`,
      };
    }
    return {
      ok: true,
      revoked: false,
      message: `Signed out of ${workspace.name} on this computer (both tokens removed), but the token could not be revoked at ${host} (${failure}): it may still work there until it expires.`,
    };
  };
}

/** Revokes the workspace's sign-in at its service; why not, when it could not. */
async function revokeAtService(
  deps: { secrets: SecretStore; transport: Transport; renewal?: Renewal },
  workspace: Workspace,
): Promise<string | undefined> {
  // Only a token from Sign in with Slack is revoked: a pasted one may be the team's bot token.
  if (workspace.auth !== 'slack') return undefined;
  const store = workspaceSecrets(deps.secrets);
  // An expired access token cannot revoke: renewed first when the sign-in still can be.
  const token = await (deps.renewal?.accessToken(workspace) ?? store.accessToken(workspace))
    .catch(() => store.accessToken(workspace))
    .catch(() => null);
  // Nothing kept here, nothing to end there.
  if (!token) return undefined;
  const revoked = await revokeToken(workspace.baseUrl, token, deps.transport);
  if (revoked.ok) return undefined;
  if (revoked.error === 'token_expired' && deps.renewal) {
    const renewed = await deps.renewal.renew(workspace, token).catch(() => undefined);
    if (renewed) {
      const again = await revokeToken(workspace.baseUrl, renewed, deps.transport);
      return again.ok ? undefined : again.error;
    }
  }
  return revoked.error === 'unreachable' ? 'no answer from the service' : revoked.error;
}
