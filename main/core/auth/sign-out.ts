// Sign out: the token is revoked at the service (auth.revoke, which ends the whole sign-in, its
// refresh token too), both tokens leave the keychain, and the settings forget the expiry and
// who signed in. Refused, with the count, while files still wait for the workspace, unless the
// person said to go ahead (they then wait for a new sign-in or token).
import { isActiveState } from '../../portable/item-states';
import type { SignOutOptions, SignOutResult } from '../api';
import type { UploadQueue } from '../queue/upload-queue';
import { RefusedError } from '../refused-error';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import { revokeToken } from './oauth-client';
import type { Renewal } from './renewal';
import { tokenStore } from './token-store';

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
    const store = tokenStore(deps.secrets);
    // An expired access token cannot revoke: renewed first when the sign-in still can be.
    const token = await (
      deps.renewal?.accessToken(workspace) ?? store.accessToken(workspaceId)
    ).catch(() => store.accessToken(workspaceId).catch(() => null));
    // Only a token from Sign in with Slack is revoked: a pasted one may be the team's bot token.
    if (token && workspace.auth === 'slack') {
      const revoked = await revokeToken(workspace.baseUrl, token, deps.transport);
      if (!revoked.ok && revoked.error === 'token_expired' && deps.renewal) {
        const renewed = await deps.renewal.renew(workspace, token).catch(() => undefined);
        if (renewed) await revokeToken(workspace.baseUrl, renewed, deps.transport);
      }
    }
    await store.forgetBoth(workspaceId);
    deps.settings.clearSignIn(workspaceId);
    deps.onSignedOut(workspaceId);
    return { ok: true };
  };
}
