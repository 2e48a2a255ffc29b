// The keychain store's own checks and its "nothing stored" answers (found by mutation testing,
// docs/mutation.md): a bad account or empty token never reaches the keychain, and keytar's
// "nothing" is asked about (locked? no keyring?) before it is believed. keytar is injected.
import { describe, expect, it } from 'vitest';
import { createKeychainStore, type KeytarLike } from './keychain-store';
import type { SecretServiceState } from './secret-service-state';
import { KEYCHAIN_SERVICE, type KeychainError } from './secret-store';

/** A keychain holding `stored`, recording every call. */
function keychain(stored: Record<string, string>) {
  const calls: string[] = [];
  const keytar: KeytarLike = {
    getPassword: async (_s, a) => {
      calls.push(`get ${a}`);
      return stored[a] ?? null;
    },
    setPassword: async (_s, a, p) => {
      calls.push(`set ${a}`);
      stored[a] = p;
    },
    deletePassword: async (_s, a) => {
      calls.push(`delete ${a}`);
      const had = a in stored;
      delete stored[a];
      return had;
    },
  };
  return { keytar, calls };
}

const inspected = (state: SecretServiceState) => {
  const asked: string[] = [];
  return {
    asked,
    inspect: async (service: string, account: string) => {
      asked.push(`${service} ${account}`);
      return state;
    },
  };
};

describe('what never reaches the keychain', () => {
  it('an empty or blank account, for get, set and delete, with a message saying so', async () => {
    const { keytar, calls } = keychain({});
    const store = createKeychainStore({ keytar });
    for (const account of ['', '   ']) {
      for (const call of [
        () => store.get(account),
        () => store.set(account, 'xoxb-1'),
        () => store.delete(account),
      ]) {
        await expect(call()).rejects.toMatchObject({
          name: 'KeychainError',
          problem: 'unavailable',
          message: 'No keychain account given (an empty workspace id).',
        });
      }
    }
    expect(calls).toEqual([]);
  });

  it('an empty token', async () => {
    const { keytar, calls } = keychain({});
    const store = createKeychainStore({ keytar });
    await expect(store.set('w1', '')).rejects.toMatchObject({
      problem: 'unavailable',
      message: 'Refusing to store an empty token.',
    });
    expect(calls).toEqual([]);
  });
});

describe('when keytar finds nothing', () => {
  it('a locked keyring is said, with this OS’s words, not passed off as "no token"', async () => {
    const { keytar } = keychain({});
    const { inspect, asked } = inspected('locked');
    const store = createKeychainStore({ keytar, inspect, platform: 'win32' });
    await expect(store.get('w1')).rejects.toMatchObject({
      problem: 'locked',
      message: 'Windows Credential Manager is locked. Sign in to Windows again, then try again.',
    });
    await expect(store.delete('w1')).rejects.toMatchObject({ problem: 'locked' });
    expect(asked).toEqual([`${KEYCHAIN_SERVICE} w1`, `${KEYCHAIN_SERVICE} w1`]);
  });

  it('no default keyring is said too', async () => {
    const { keytar } = keychain({});
    const store = createKeychainStore({ keytar, inspect: inspected('no-default-keyring').inspect });
    await expect(store.get('w1')).rejects.toMatchObject({
      problem: 'locked',
      message: expect.stringMatching(/no default \(login\) keyring/),
    });
  });

  it('an empty stored value counts as nothing', async () => {
    const { keytar } = keychain({ w1: '' });
    const { inspect, asked } = inspected('absent');
    expect(await createKeychainStore({ keytar, inspect }).get('w1')).toBeNull();
    expect(asked).toHaveLength(1);
  });

  it('absent or unknown: no token, as keytar said', async () => {
    for (const state of ['absent', 'unknown'] as const) {
      const { keytar } = keychain({});
      const store = createKeychainStore({ keytar, inspect: inspected(state).inspect });
      expect(await store.get('w1')).toBeNull();
      expect(await store.delete('w1')).toBe(false);
    }
  });

  it('a token that is there is answered without asking anything else', async () => {
    const { keytar } = keychain({ w1: 'xoxb-1' });
    const { inspect, asked } = inspected('locked');
    const store = createKeychainStore({ keytar, inspect });
    expect(await store.get('w1')).toBe('xoxb-1');
    expect(await store.delete('w1')).toBe(true);
    expect(asked).toEqual([]);
  });

  it('with an injected keytar and no inspect, keytar’s answer stands on every OS', async () => {
    const { keytar } = keychain({});
    expect(await createKeychainStore({ keytar, platform: 'linux' }).get('w1')).toBeNull();
  });
});

describe('failures', () => {
  it('a failure names this OS’s keychain by the platform given, and blanks the token', async () => {
    const keytar: KeytarLike = {
      getPassword: async () => Promise.reject(new Error('User interaction is not allowed.')),
      setPassword: async (_s, _a, p) => Promise.reject(new Error(`weird ${p}`)),
      deletePassword: async () => false,
    };
    const store = createKeychainStore({ keytar, platform: 'darwin' });
    await expect(store.get('w1')).rejects.toMatchObject({
      message: expect.stringMatching(/^The macOS keychain is locked/),
    });
    const error = (await store.set('w1', 'xoxb-secret').catch((e: unknown) => e)) as KeychainError;
    expect(error.message).toContain('weird [token]');
    expect(error.message).not.toContain('xoxb-secret');
  });
});
