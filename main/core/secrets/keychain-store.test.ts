// How keytar's failures reach people. The messages are the ones the OS keychains really give
// (Linux ones captured on this machine; macOS Security.framework and Windows FormatMessage texts);
// the real gnome-keyring states are exercised in test/keychain/.
import { describe, expect, it, vi } from 'vitest';
import { keychainErrorFrom } from './keychain-errors';
import { createKeychainStore, type KeytarLike } from './keychain-store';
import { KeychainError } from './secret-store';

function failingKeytar(message: string): KeytarLike {
  const fail = async (): Promise<never> => {
    throw new Error(message);
  };
  return { getPassword: fail, setPassword: fail, deletePassword: fail };
}

describe('keychainErrorFrom', () => {
  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'no-secret-service', /no D-Bus session/],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      'no-secret-service',
      /nothing provides org\.freedesktop\.secrets/,
    ],
    ['Cannot create an item in a locked collection', 'locked', /keyring is locked/],
    [
      'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
      'locked',
      /create or unlock the login keyring/,
    ],
    ['The user name or passphrase you entered is not correct.', 'denied', /refused/],
    ['User canceled the operation.', 'denied', /refused/],
    ['Access is denied.', 'denied', /refused/],
    ['User interaction is not allowed.', 'locked', /locked/],
    ['Something nobody expected', 'unavailable', /Something nobody expected/],
  ])('%s → %s', (original, problem, wording) => {
    const error = keychainErrorFrom(new Error(original), { platform: 'linux' });
    expect(error).toBeInstanceOf(KeychainError);
    expect(error.problem).toBe(problem);
    expect(error.message).toMatch(wording);
  });

  it('Linux messages say what to install and that a desktop session must run; no file fallback', () => {
    for (const original of [
      'Cannot autolaunch D-Bus without X11 $DISPLAY',
      'The name org.freedesktop.secrets was not provided by any .service files',
    ]) {
      const { message } = keychainErrorFrom(new Error(original), { platform: 'linux' });
      expect(message).toMatch(/gnome-keyring/);
      expect(message).toMatch(/KWallet/);
      expect(message).toMatch(/desktop session/);
      expect(message).toMatch(/never stores tokens in a file/);
    }
  });

  it('uses each OS’s own words for locked and denied', () => {
    expect(
      keychainErrorFrom(new Error('User interaction is not allowed.'), { platform: 'darwin' })
        .message,
    ).toMatch(/Keychain Access/);
    expect(
      keychainErrorFrom(new Error('Access is denied.'), { platform: 'win32' }).message,
    ).toMatch(/Windows Credential Manager/);
  });

  it('never repeats the secret, even if the OS echoed it', () => {
    const error = keychainErrorFrom(new Error('weird failure storing xoxb-very-secret'), {
      secret: 'xoxb-very-secret',
    });
    expect(error.problem).toBe('unavailable');
    expect(error.message).not.toContain('xoxb-very-secret');
    expect(String((error.cause as Error).message)).not.toContain('xoxb-very-secret');
  });
});

describe('createKeychainStore with an injected keytar', () => {
  it('maps failures of get, set and delete to KeychainError', async () => {
    const store = createKeychainStore({
      keytar: failingKeytar('Cannot create an item in a locked collection'),
      platform: 'linux',
    });
    await expect(store.set('w1', 'xoxb-1')).rejects.toMatchObject({ problem: 'locked' });
    await expect(store.get('w1')).rejects.toMatchObject({ problem: 'locked' });
    await expect(store.delete('w1')).rejects.toMatchObject({ problem: 'locked' });
  });

  it('uses service "Trayshare" and the workspace id as the account', async () => {
    const calls: string[][] = [];
    const keytar: KeytarLike = {
      getPassword: async (s, a) => {
        calls.push(['get', s, a]);
        return null;
      },
      setPassword: async (s, a) => {
        calls.push(['set', s, a]);
      },
      deletePassword: async (s, a) => {
        calls.push(['delete', s, a]);
        return false;
      },
    };
    const store = createKeychainStore({ keytar });
    await store.set('w1', 'xoxb-1');
    await store.get('w1');
    await store.delete('w1');
    expect(calls).toEqual([
      ['set', 'Trayshare', 'w1'],
      ['get', 'Trayshare', 'w1'],
      ['delete', 'Trayshare', 'w1'],
    ]);
  });

  it('refuses an empty account or secret before reaching the keychain', async () => {
    const store = createKeychainStore({ keytar: failingKeytar('must not be called') });
    await expect(store.get('')).rejects.toBeInstanceOf(KeychainError);
    await expect(store.set('w1', '')).rejects.toThrow(/empty token/);
  });
});

describe('createKeychainStore without a loadable keytar', () => {
  it('reports the missing native module as a KeychainError instead of crashing', async () => {
    vi.resetModules();
    vi.doMock('keytar', () => {
      throw new Error('Cannot find module keytar.node (was compiled against a different Node.js)');
    });
    try {
      const { createKeychainStore: fresh } = await import('./keychain-store');
      const { KeychainError: FreshError } = await import('./secret-store');
      const store = fresh();
      const failure = await store.get('w1').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(FreshError);
      expect(failure).toMatchObject({ problem: 'unavailable' });
      expect((failure as Error).message).toMatch(/keychain module \(keytar\) could not be loaded/);
    } finally {
      vi.doUnmock('keytar');
      vi.resetModules();
    }
  });
});
