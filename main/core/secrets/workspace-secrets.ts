// A workspace's tokens in the keychain, and the one place that names their entries. Each entry
// is tied to the origin (scheme, host and port) its token was issued for: the access token's
// account is "<workspace id>@<origin>", a Sign in with Slack refresh token's is
// "<workspace id>:refresh@<origin>". Every read names the origin the request is about to go to,
// so a token kept for one origin is never found for another, whatever the settings file says by
// then (another process may move a workspace while a token is being checked or signed in).
// Entries written before tokens were tied to an origin (account "<id>" and "<id>:refresh") are
// moved to the workspace's origin the first time they are read, and removed with the new ones.
import type { SecretStore } from './secret-store';

/** Where a token is used: a workspace's id and the address its requests go to. */
export interface TokenHome {
  id: string;
  baseUrl: string;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** Puts the keychain back as it was before a change (what a failed save or sign-in calls). */
export type UndoChange = () => Promise<void>;

export const originOf = (baseUrl: string): string => new URL(baseUrl).origin;

export const sameOrigin = (a: TokenHome, b: TokenHome): boolean =>
  originOf(a.baseUrl) === originOf(b.baseUrl);

export const accessAccount = (home: TokenHome): string => `${home.id}@${originOf(home.baseUrl)}`;

export const refreshAccount = (home: TokenHome): string =>
  `${home.id}:refresh@${originOf(home.baseUrl)}`;

/** The accounts of entries kept before tokens were tied to an origin. */
export const legacyAccounts = (workspaceId: string) => ({
  access: workspaceId,
  refresh: `${workspaceId}:refresh`,
});

/** One entry as a change leaves it: a secret, or none (null). */
interface Entry {
  account: string;
  value: string | null;
}

export function workspaceSecrets(secrets: SecretStore) {
  const put = (e: Entry): Promise<unknown> =>
    e.value === null ? secrets.delete(e.account) : secrets.set(e.account, e.value);

  /** Each entry put back, newest first; one that fails does not stop the others. */
  async function restore(before: readonly Entry[]): Promise<void> {
    let failure: unknown;
    for (const e of [...before].reverse()) {
      try {
        await put(e);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /**
   * Makes each entry so, in order; when one write fails, the ones before it are put back as
   * they were, so a failed step leaves the keychain as it found it. Gives the way back for the
   * caller's later steps (the settings write, the origin checked again).
   */
  async function change(entries: readonly Entry[]): Promise<UndoChange> {
    const before: Entry[] = [];
    try {
      for (const e of entries) {
        const previous = await secrets.get(e.account);
        if (previous === e.value) continue;
        before.push({ account: e.account, value: previous });
        await put(e);
      }
    } catch (error) {
      // The first failure is what the person needs to read; a failed put-back cannot add to it.
      await restore(before).catch(() => undefined);
      throw error;
    }
    return () => restore(before);
  }

  /** The entry for this origin; a pre-origin entry becomes it (moved, not copied). */
  async function read(account: string, legacy: string): Promise<string | null> {
    const value = await secrets.get(account);
    if (value !== null) return value;
    const old = await secrets.get(legacy);
    if (old === null) return null;
    await secrets.set(account, old);
    await secrets.delete(legacy);
    return old;
  }

  return {
    /** The access token kept for this workspace at this origin, or null. */
    accessToken: (home: TokenHome) => read(accessAccount(home), legacyAccounts(home.id).access),
    refreshToken: (home: TokenHome) => read(refreshAccount(home), legacyAccounts(home.id).refresh),

    /** A pasted token, for this origin; a pre-origin entry it replaces goes too. */
    saveAccess: (home: TokenHome, token: string): Promise<UndoChange> =>
      change([
        { account: accessAccount(home), value: token },
        { account: legacyAccounts(home.id).access, value: null },
      ]),

    /**
     * A sign-in's two tokens, for this origin. The refresh token goes first: Slack spends the
     * old one the moment it answers a renewal, so once the new refresh token is stored a crash
     * loses nothing (the old access token still works until it expires, then the new refresh
     * token renews it); had the access token gone first, a crash would leave a spent refresh
     * token.
     */
    savePair: (home: TokenHome, pair: TokenPair): Promise<UndoChange> =>
      change(pairEntries(home, pair)),

    /**
     * A renewal's new pair. Not put back when the second write fails: the old refresh token is
     * already spent at the service, so the new one is the only one that still works.
     */
    async saveRenewed(home: TokenHome, pair: TokenPair): Promise<void> {
      for (const e of pairEntries(home, pair)) await put(e);
    },

    /**
     * The sign-in ran out (the refresh token expired or was revoked): the refresh token is of no
     * use any more, and its absence is what marks the workspace "Sign in again".
     */
    async forgetRefresh(home: TokenHome): Promise<void> {
      await secrets.delete(refreshAccount(home));
      await secrets.delete(legacyAccounts(home.id).refresh);
    },

    /** Both tokens of this workspace at this origin, new and old spellings; whether an access token was there. */
    async forget(home: TokenHome): Promise<boolean> {
      const legacy = legacyAccounts(home.id);
      await secrets.delete(refreshAccount(home));
      await secrets.delete(legacy.refresh);
      const removed = await secrets.delete(accessAccount(home));
      return (await secrets.delete(legacy.access)) || removed;
    },
  };
}

function pairEntries(home: TokenHome, pair: TokenPair): Entry[] {
  const legacy = legacyAccounts(home.id);
  return [
    { account: refreshAccount(home), value: pair.refreshToken },
    { account: accessAccount(home), value: pair.accessToken },
    { account: legacy.refresh, value: null },
    { account: legacy.access, value: null },
  ];
}
