// A signed-in workspace's two tokens, in the keychain only: the access token under the
// workspace's ID (where every other part of Trayshare reads a workspace's token) and the
// refresh token under "<id>:refresh". The refresh token is written first: Slack spends the old
// one the moment it answers a renewal, so once the new refresh token is stored a crash loses
// nothing (the old access token still works until it expires, then the new refresh token
// renews it); had the access token gone first, a crash would leave a spent refresh token.
import type { SecretStore } from '../secrets/secret-store';

export const refreshAccount = (workspaceId: string): string => `${workspaceId}:refresh`;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export function tokenStore(secrets: SecretStore) {
  return {
    accessToken: (workspaceId: string) => secrets.get(workspaceId),
    refreshToken: (workspaceId: string) => secrets.get(refreshAccount(workspaceId)),
    async save(workspaceId: string, pair: TokenPair): Promise<void> {
      await secrets.set(refreshAccount(workspaceId), pair.refreshToken);
      await secrets.set(workspaceId, pair.accessToken);
    },
    /**
     * The sign-in ran out (the refresh token expired or was revoked): the refresh token is of no
     * use any more, and its absence is what marks the workspace "Sign in again".
     */
    forgetRefresh: (workspaceId: string) => secrets.delete(refreshAccount(workspaceId)),
    async forgetBoth(workspaceId: string): Promise<void> {
      await secrets.delete(refreshAccount(workspaceId));
      await secrets.delete(workspaceId);
    },
  };
}
