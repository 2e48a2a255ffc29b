// Each keychain failure keytar reports, as the person reads it (found by mutation testing,
// docs/mutation.md): the problem, the words that say what to do on that OS, the original text
// kept as the cause with the token blanked, and nothing that suggests a file instead.
import { describe, expect, it } from 'vitest';
import { keychainProblemAtStart } from './keychain-check';
import { keychainErrorFrom, lockedKeychainError, noDefaultKeyringError } from './keychain-errors';
import { KeychainError } from './secret-store';

const linux = { platform: 'linux' as const };

describe('what a keytar failure becomes', () => {
  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'no-secret-service', /no D-Bus session/],
    [
      'Unable to autolaunch a dbus-daemon without a $DISPLAY',
      'no-secret-service',
      /no D-Bus session/,
    ],
    ['DBUS_SESSION_BUS_ADDRESS is not set', 'no-secret-service', /no D-Bus session/],
    ['Could not connect: No such file or directory', 'no-secret-service', /no D-Bus session/],
    ['Could not connect: Connection refused', 'no-secret-service', /no D-Bus session/],
    ['Failed to connect to socket /run/user/0/bus', 'no-secret-service', /no D-Bus session/],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      'no-secret-service',
      /nothing provides org\.freedesktop\.secrets/,
    ],
    ['org.freedesktop.secrets is not activatable', 'no-secret-service', /nothing provides/],
    [
      'GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: org.freedesktop.secrets',
      'no-secret-service',
      /nothing provides/,
    ],
    [
      'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
      'locked',
      /no default \(login\) keyring/,
    ],
    ['Cannot create an item in a locked collection', 'locked', /keyring is locked/],
    ['The keyring is locked', 'locked', /keyring is locked/],
    ['prompt dismissed', 'locked', /keyring is locked/],
    ['The prompt was dismissed', 'locked', /keyring is locked/],
    ['User interaction is not allowed.', 'locked', /keyring is locked/],
    ['The user name or passphrase you entered is not correct.', 'denied', /refused access/],
    ['User canceled the operation.', 'denied', /refused access/],
    ['The operation was cancelled', 'denied', /refused access/],
    ['The operation was canceled', 'denied', /refused access/],
    ['Access is denied.', 'denied', /refused access/],
    ['Not authorized to perform operation', 'denied', /refused access/],
    ['Permission denied', 'denied', /refused access/],
    ['access denied by policy', 'denied', /refused access/],
    [
      'The stub received bad data.',
      'unavailable',
      /too long \(Windows Credential Manager holds at most 2560 bytes\)/,
    ],
  ])('%s → %s', (text, problem, message) => {
    const error = keychainErrorFrom(new Error(text), linux);
    expect(error).toBeInstanceOf(KeychainError);
    expect(error.problem).toBe(problem);
    expect(error.message).toMatch(message);
    expect((error.cause as Error).message).toBe(text);
  });

  it('without a Secret Service: says how to install one and that no file is used instead', () => {
    for (const text of ['Cannot autolaunch D-Bus', 'org.freedesktop.secrets was not provided']) {
      const { message } = keychainErrorFrom(new Error(text), linux);
      expect(message).toContain(
        'Install GNOME Keyring (Debian/Ubuntu: sudo apt install gnome-keyring; Fedora: sudo dnf install gnome-keyring) or KWallet (KDE), make sure it starts with your desktop session, then try again.',
      );
      expect(message).toContain('Trayshare never stores tokens in a file instead.');
    }
  });

  it('says where to unlock or allow it on each OS', () => {
    const locked = (platform: NodeJS.Platform) =>
      keychainErrorFrom(new Error('keychain is locked'), { platform }).message;
    expect(locked('darwin')).toBe(
      'The macOS keychain is locked and could not be unlocked now. Unlock the login keychain (Keychain Access, or sign in again), then try again.',
    );
    expect(locked('win32')).toBe(
      'Windows Credential Manager is locked. Sign in to Windows again, then try again.',
    );
    expect(locked('linux')).toBe(
      'The keyring is locked, and no unlock prompt could be shown (or it was dismissed). Unlock your login keyring (Passwords and Keys / Seahorse, or KWallet Manager), then try again.',
    );
    const denied = (platform: NodeJS.Platform) =>
      keychainErrorFrom(new Error('Access is denied'), { platform }).message;
    expect(denied('darwin')).toBe(
      'Access to the macOS keychain was refused (the prompt was cancelled, or the password was wrong). Try again and choose "Allow" or "Always Allow" when macOS asks; check Trayshare\'s entry in Keychain Access.',
    );
    expect(denied('win32')).toBe(
      'Windows Credential Manager refused access to the token. Check that you are signed in as the same user that saved it, then try again.',
    );
    expect(denied('linux')).toBe(
      'The keyring refused access to the token (the request was cancelled or not allowed). Try again and allow access when the keyring asks.',
    );
    expect(lockedKeychainError('win32')).toMatchObject({
      problem: 'locked',
      message: 'Windows Credential Manager is locked. Sign in to Windows again, then try again.',
    });
    expect(lockedKeychainError().message).toBe(locked(process.platform));
  });

  it('anything else: the keychain’s own words, the token blanked out of them, and no file', () => {
    const error = keychainErrorFrom(
      new Error('  weird failure for xoxb-secret-1 (xoxb-secret-1)  '),
      {
        ...linux,
        secret: 'xoxb-secret-1',
      },
    );
    expect(error.problem).toBe('unavailable');
    expect(error.message).toBe(
      'The keychain reported an error: weird failure for [token] ([token]). Trayshare never stores tokens in a file instead.',
    );
    expect((error.cause as Error).message).toBe('weird failure for [token] ([token])');
    expect(keychainErrorFrom('', linux).message).toBe(
      'The keychain reported an error: no details given. Trayshare never stores tokens in a file instead.',
    );
    expect(keychainErrorFrom(42, linux).message).toContain('reported an error: 42.');
  });

  it('an empty secret blanks nothing', () => {
    expect(keychainErrorFrom(new Error('odd'), { ...linux, secret: '' }).message).toBe(
      'The keychain reported an error: odd. Trayshare never stores tokens in a file instead.',
    );
  });

  it('a KeychainError passes through as it is; the platform defaults to this one', () => {
    const own = new KeychainError('denied', 'no');
    expect(keychainErrorFrom(own)).toBe(own);
    expect(keychainErrorFrom(new Error('keyring is locked')).message).toBe(
      lockedKeychainError().message,
    );
  });

  it('no default keyring: says to create or unlock the login keyring, keeping the cause', () => {
    const cause = new Error('why');
    const error = noDefaultKeyringError({ cause });
    expect(error).toMatchObject({
      problem: 'locked',
      message:
        'The keyring has no default (login) keyring, and the prompt to create or unlock one could not be shown. Open Passwords and Keys (Seahorse) or KWallet Manager, create or unlock the login keyring, then try again.',
    });
    expect(error.cause).toBe(cause);
  });
});

describe('the keychain asked at start', () => {
  const service = (ids: string[]) => ({
    getSnapshot: async () =>
      ({ workspaces: ids.map((id) => ({ id, baseUrl: 'https://acme.example' })) }) as never,
  });

  it('asks for the first workspace’s token, or a made-up account, and says nothing when it answers', async () => {
    const asked: string[] = [];
    const secrets = {
      get: async (account: string) => {
        asked.push(account);
        return null;
      },
    };
    const logged: string[] = [];
    expect(
      await keychainProblemAtStart(service(['W1', 'W2']), secrets, (l) => logged.push(l)),
    ).toBeNull();
    expect(await keychainProblemAtStart(service([]), secrets, (l) => logged.push(l))).toBeNull();
    expect(asked).toEqual(['W1@https://acme.example', 'trayshare-keychain-check']);
    expect(logged).toEqual([]);
  });

  it('says and logs what the keychain said when it cannot be used', async () => {
    const logged: string[] = [];
    const locked = { get: async () => Promise.reject(lockedKeychainError('linux')) };
    const message = await keychainProblemAtStart(service([]), locked, (l) => logged.push(l));
    expect(message).toBe(lockedKeychainError('linux').message);
    expect(logged).toEqual([`Keychain at start: ${message}`]);
    const odd = { get: async () => Promise.reject(new Error('odd')) };
    expect(await keychainProblemAtStart(service([]), odd, () => {})).toBe('Error: odd');
  });
});
