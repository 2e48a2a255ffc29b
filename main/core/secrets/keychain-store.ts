// The app's SecretStore: the OS keychain through keytar (service "Trayshare", each account named
// by workspace-secrets.ts after a workspace and its origin). keytar is a native module, so it is
// loaded on first use: a missing or mis-built module becomes a KeychainError the person can
// read, not a crash at start-up. There is no fallback.
import { keychainErrorFrom, lockedKeychainError, noDefaultKeyringError } from './keychain-errors';
import { type SecretServiceState, secretServiceState } from './secret-service-state';
import { KEYCHAIN_SERVICE, KeychainError, type SecretStore } from './secret-store';

/** The part of keytar this store uses (tests inject one to produce faults). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainStoreOptions {
  /** Keychain service name; tests use their own so they never touch real entries. */
  service?: string;
  keytar?: KeytarLike;
  /** Which OS's wording to use in messages (defaults to this one). */
  platform?: NodeJS.Platform;
  /**
   * Why keytar found nothing: a locked or missing keyring looks like "no token" to keytar.
   * Defaults to asking the Secret Service on Linux; elsewhere keytar's answer stands.
   */
  inspect?: (service: string, account: string) => Promise<SecretServiceState>;
}

async function loadKeytar(): Promise<KeytarLike> {
  try {
    const mod = (await import('keytar')) as { default?: KeytarLike } & Partial<KeytarLike>;
    const keytar = (mod.default ?? mod) as Partial<KeytarLike>;
    if (typeof keytar.getPassword !== 'function') throw new Error('keytar has no getPassword');
    return keytar as KeytarLike;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new KeychainError(
      'unavailable',
      `The keychain module (keytar) could not be loaded: ${detail}. Reinstall Trayshare. Trayshare never stores tokens in a file instead.`,
      { cause: error },
    );
  }
}

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.trim() === '') {
    throw new KeychainError('unavailable', 'No keychain account given (an empty workspace id).');
  }
}

export function createKeychainStore(opts: KeychainStoreOptions = {}): SecretStore {
  const service = opts.service ?? KEYCHAIN_SERVICE;
  const platform = opts.platform ?? process.platform;
  let loading: Promise<KeytarLike> | undefined = opts.keytar
    ? Promise.resolve(opts.keytar)
    : undefined;
  const keytar = (): Promise<KeytarLike> => {
    loading ??= loadKeytar();
    return loading;
  };

  const inspect =
    opts.inspect ??
    (platform === 'linux' && !opts.keytar
      ? secretServiceState
      : async (): Promise<SecretServiceState> => 'unknown');

  /** keytar found nothing: a locked or never-set-up keyring must not pass as "no token". */
  async function explainNothing(account: string): Promise<void> {
    const state = await inspect(service, account);
    if (state === 'locked') throw lockedKeychainError(platform);
    if (state === 'no-default-keyring') throw noDefaultKeyringError();
  }

  async function call<T>(run: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    const k = await keytar();
    try {
      return await run(k);
    } catch (error) {
      throw keychainErrorFrom(error, { platform, secret });
    }
  }

  return {
    async get(account) {
      checkAccount(account);
      const value = await call((k) => k.getPassword(service, account));
      if (value === null || value === '') {
        await explainNothing(account);
        return null;
      }
      return value;
    },
    async set(account, secret) {
      checkAccount(account);
      if (typeof secret !== 'string' || secret === '') {
        throw new KeychainError('unavailable', 'Refusing to store an empty token.');
      }
      await call((k) => k.setPassword(service, account, secret), secret);
    },
    async delete(account) {
      checkAccount(account);
      const removed = await call((k) => k.deletePassword(service, account));
      if (!removed) await explainNothing(account);
      return removed;
    },
  };
}
