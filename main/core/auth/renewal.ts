// The access token of a signed-in workspace, renewed when it is about to expire or when the
// service said token_expired: the one place the queue, the channel lists and the share path get
// a workspace's token from (delivery/delivery.ts's tokenLookup). A pasted token is read as
// before. One renewal at a time: within the process (one promise per workspace) and across
// processes (renew-lock.ts); after waiting, the keychain is read again, and a token another
// process renewed meanwhile is used instead of renewing twice.
import type { Workspace } from '../model';
import { RenewalError } from '../renewal-error';
import type { SecretStore } from '../secrets/secret-store';
import { sameOrigin, workspaceSecrets } from '../secrets/workspace-secrets';
import type { Transport } from '../upload/transport';
import { renewTokens } from './oauth-client';
import { withRenewLock } from './renew-lock';

export interface RenewalDeps {
  secrets: SecretStore;
  transport: Transport;
  /** The settings as they are now (another process may have renewed since). */
  workspace(id: string): Workspace | undefined;
  setTokenExpiry(workspaceId: string, expiresAt: number): void;
  /** The user-data folder, shared by the app and the CLI: where the renewal lock is. */
  lockDir: string;
  now?: () => number;
  /**
   * Renew this long before the access token expires (default 5 minutes, at most half of the
   * token's lifetime once it is known), so a long upload does not start with a token about to
   * run out, and a short-lived token is not renewed at every call.
   */
  marginMs?: number;
  /** The sign-in ran out: the workspace now shows "Sign in again". */
  onExpired?: (workspaceId: string) => void;
}

export interface Renewal {
  /** The token to send with: renewed first when it expires within the margin. */
  accessToken(workspace: Workspace): Promise<string | null>;
  /** Renews now, unless another process already replaced `staleToken`; the new access token. */
  renew(workspace: Workspace, staleToken: string): Promise<string>;
}

function ranOut(deps: RenewalDeps, workspace: Workspace): RenewalError {
  deps.onExpired?.(workspace.id);
  return new RenewalError({
    class: 'credential',
    code: 'sign_in_expired',
    message: `Your sign-in to ${workspace.name} has run out: sign in again to send the waiting files.`,
  });
}

/**
 * One renewal, holding the lock: the keychain read again first (another process may have
 * renewed while this one waited), then the refresh token exchanged and the new pair stored.
 * Gives the new access token and its lifetime (ms).
 */
async function renewHoldingLock(
  deps: RenewalDeps,
  workspace: Workspace,
  staleToken: string,
): Promise<{ token: string; lifetimeMs?: number }> {
  const store = workspaceSecrets(deps.secrets);
  const now = deps.workspace(workspace.id);
  if (now && !sameOrigin(now, workspace)) {
    // The workspace moved to another origin since this attempt read it: its tokens stay with the
    // old origin, and the next attempt reads the workspace (and finds no token) where it is now.
    throw new RenewalError({
      class: 'transient',
      code: 'renewal_moved',
      message: `${now.name} moved to another address while its sign-in was being renewed; trying again there.`,
    });
  }
  const fresh = now ?? workspace;
  const current = await store.accessToken(fresh);
  if (current !== null && current !== staleToken) return { token: current };
  const refreshToken = await store.refreshToken(fresh);
  if (refreshToken === null || !fresh.clientId) throw ranOut(deps, fresh);
  // Sent only to the origin it was kept for (the lookup above named it).
  const answer = await renewTokens(
    fresh.baseUrl,
    { clientId: fresh.clientId, refreshToken },
    deps.transport,
  );
  if (answer.ok) {
    const lifetimeMs = answer.tokens.expiresIn * 1000;
    await store.saveRenewed(fresh, answer.tokens);
    deps.setTokenExpiry(workspace.id, (deps.now ?? Date.now)() + lifetimeMs);
    return { token: answer.tokens.accessToken, lifetimeMs };
  }
  if (answer.error === 'unreachable' || answer.error.startsWith('http_')) {
    // Nothing was spent: the service never answered with new tokens. Try again later.
    throw new RenewalError({
      class: 'transient',
      code: 'renewal_unreachable',
      message: `The sign-in to ${fresh.name} could not be renewed (${answer.detail ?? answer.error}); trying again.`,
    });
  }
  // invalid_refresh_token (expired after 30 days, revoked, or spent by a process that died
  // before storing its answer), or the app's client ID is gone: only signing in again helps.
  await store.forgetRefresh(fresh);
  throw ranOut(deps, fresh);
}

export function openRenewal(deps: RenewalDeps): Renewal {
  const store = workspaceSecrets(deps.secrets);
  const now = deps.now ?? Date.now;
  const margin = deps.marginMs ?? 5 * 60_000;
  const inFlight = new Map<string, Promise<string>>();
  // The access tokens' lifetime as last given (expires_in), per workspace.
  const lifetimes = new Map<string, number>();
  const marginOf = (workspaceId: string): number =>
    Math.min(margin, (lifetimes.get(workspaceId) ?? Number.POSITIVE_INFINITY) / 2);

  function renew(workspace: Workspace, staleToken: string): Promise<string> {
    const running = inFlight.get(workspace.id);
    if (running) return running;
    const started = withRenewLock(deps.lockDir, workspace.id, () =>
      renewHoldingLock(deps, workspace, staleToken),
    )
      .then(({ token, lifetimeMs }) => {
        if (lifetimeMs !== undefined) lifetimes.set(workspace.id, lifetimeMs);
        return token;
      })
      .finally(() => inFlight.delete(workspace.id));
    inFlight.set(workspace.id, started);
    return started;
  }

  return {
    async accessToken(workspace) {
      // The token kept for the origin this request goes to, and no other.
      const token = await store.accessToken(workspace);
      if (workspace.auth !== 'slack' || token === null) return token;
      const latest = deps.workspace(workspace.id);
      // Moved since this workspace was read: the token is renewed where it belongs, not there.
      const fresh = latest && sameOrigin(latest, workspace) ? latest : workspace;
      const expiresAt = fresh.tokenExpiresAt;
      if (expiresAt === undefined || now() < expiresAt - marginOf(workspace.id)) return token;
      try {
        return await renew(fresh, token);
      } catch (error) {
        // Not renewed now but not run out either: the current token still works until it expires.
        if (
          error instanceof RenewalError &&
          error.reason.class === 'transient' &&
          now() < expiresAt
        ) {
          return token;
        }
        throw error;
      }
    },
    renew,
  };
}
