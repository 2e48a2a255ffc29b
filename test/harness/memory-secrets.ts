import type { SecretStore } from '../../main/core/secrets/secret-store';

/**
 * The harness keeps tokens in memory, not in the OS keychain: it runs headless, often with no
 * Secret Service, and a demo token must not land in the developer's own keyring.
 */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => {
      secrets.set(account, secret);
    },
    delete: async (account) => secrets.delete(account),
  };
}
