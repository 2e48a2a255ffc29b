// Where tokens live. The app's store is the OS keychain through keytar (keychain-store.ts);
// nothing else ever holds a token at rest: there is deliberately no file fallback.

export interface SecretStore {
  /** The secret for this account, or null when none is stored. */
  get(account: string): Promise<string | null>;
  /** Stores or replaces the secret. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; resolves false when there was none. */
  delete(account: string): Promise<boolean>;
}

export type KeychainProblem =
  | 'no-secret-service' // Linux: no D-Bus session or no Secret Service provider running
  | 'locked' // the keyring exists but is locked and could not be unlocked
  | 'denied' // the person or the OS refused access
  | 'unavailable'; // anything else the keychain reported

/** A keychain failure, with a message that tells the person what to do about it. */
export class KeychainError extends Error {
  readonly problem: KeychainProblem;
  constructor(problem: KeychainProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeychainError';
    this.problem = problem;
  }
}

/** The keychain service name under which every workspace token is stored (workspace-secrets.ts names the accounts). */
export const KEYCHAIN_SERVICE = 'Trayshare';
