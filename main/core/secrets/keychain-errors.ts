// keytar reports the OS keychain's own error text (libsecret/D-Bus on Linux, Security.framework
// on macOS, Credential Manager on Windows). People need to know what to do instead, so each known
// failure becomes a KeychainError with a plain message; the original text is kept as the cause.
import { errorMessage } from '../../portable/error-message';
import { KeychainError } from './secret-store';

const NEVER_A_FILE = 'Trayshare never stores tokens in a file instead.';

const LINUX_INSTALL =
  'Install GNOME Keyring (Debian/Ubuntu: sudo apt install gnome-keyring; Fedora: sudo dnf install gnome-keyring) or KWallet (KDE), make sure it starts with your desktop session, then try again.';

// Linux, no session bus at all: libdbus tries to autolaunch one, which needs X11.
const NO_DBUS =
  /Cannot autolaunch D-Bus|autolaunch a dbus-daemon|DBUS_SESSION_BUS_ADDRESS|Could not connect: (No such file|Connection refused)|Failed to connect to socket/i;
// Linux, a session bus but nothing owns or can start the Secret Service name.
const NO_PROVIDER =
  /org\.freedesktop\.secrets.*(not provided|not activatable|ServiceUnknown)|ServiceUnknown.*org\.freedesktop\.secrets/i;
// gnome-keyring: the default collection is locked and no unlock prompt could be shown or it was dismissed;
// macOS: errSecInteractionNotAllowed (a locked keychain while no UI may be shown).
const LOCKED =
  /locked collection|keyring is locked|keychain is locked|is locked|prompt (was )?dismissed|User interaction is not allowed/i;
// gnome-keyring with no default ("login") collection and no prompt to create one.
const NO_COLLECTION = /Object does not exist at path .*\/collection\//i;
// macOS errSecAuthFailed / errSecUserCanceled; Windows ERROR_ACCESS_DENIED; polkit-style refusals.
const DENIED =
  /passphrase you entered is not correct|User canceled|operation was cancell?ed|Access is denied|not authori[sz]ed|permission denied|access denied/i;
// Windows: a credential blob larger than CRED_MAX_CREDENTIAL_BLOB_SIZE (2560 bytes).
const TOO_LARGE = /stub received bad data/i;

/** Removes the secret from a message in case an OS ever echoes it back. */
function redact(message: string, secret?: string): string {
  if (!secret) return message;
  return message.split(secret).join('[token]');
}

/** Maps a keytar failure to a KeychainError whose message says what to do. */
export function keychainErrorFrom(
  error: unknown,
  opts: { platform?: NodeJS.Platform; secret?: string } = {},
): KeychainError {
  if (error instanceof KeychainError) return error;
  const platform = opts.platform ?? process.platform;
  const original = redact(errorMessage(error), opts.secret).trim();
  // The cause is only the redacted text: the original error object could, in theory, carry more.
  const cause = { cause: new Error(original) };

  if (NO_DBUS.test(original)) {
    return new KeychainError(
      'no-secret-service',
      `No keychain is reachable: Trayshare keeps tokens in the desktop's Secret Service, which runs inside a desktop session, and this process has no D-Bus session (and no $DISPLAY to start one). Start Trayshare from a logged-in desktop session. If none is installed: ${LINUX_INSTALL} ${NEVER_A_FILE}`,
      cause,
    );
  }
  if (NO_PROVIDER.test(original)) {
    return new KeychainError(
      'no-secret-service',
      `No Secret Service is running: nothing provides org.freedesktop.secrets in this desktop session, so there is no keychain to keep the token in. ${LINUX_INSTALL} ${NEVER_A_FILE}`,
      cause,
    );
  }
  if (NO_COLLECTION.test(original)) return noDefaultKeyringError(cause);
  if (DENIED.test(original)) {
    return new KeychainError('denied', deniedMessage(platform), cause);
  }
  if (LOCKED.test(original)) {
    return new KeychainError('locked', lockedMessage(platform), cause);
  }
  if (TOO_LARGE.test(original)) {
    return new KeychainError(
      'unavailable',
      'The keychain refused the token because it is too long (Windows Credential Manager holds at most 2560 bytes). Check that you pasted only the token.',
      cause,
    );
  }
  return new KeychainError(
    'unavailable',
    `The keychain reported an error: ${original || 'no details given'}. ${NEVER_A_FILE}`,
    cause,
  );
}

const NO_DEFAULT_KEYRING =
  'The keyring has no default (login) keyring, and the prompt to create or unlock one could not be shown. Open Passwords and Keys (Seahorse) or KWallet Manager, create or unlock the login keyring, then try again.';

/** gnome-keyring with no default collection: nothing can be stored or found until one exists. */
export function noDefaultKeyringError(options?: { cause?: unknown }): KeychainError {
  return new KeychainError('locked', NO_DEFAULT_KEYRING, options);
}

/** The keychain holds the item but will not open it now. */
export function lockedKeychainError(platform: NodeJS.Platform = process.platform): KeychainError {
  return new KeychainError('locked', lockedMessage(platform));
}

function lockedMessage(platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return 'The macOS keychain is locked and could not be unlocked now. Unlock the login keychain (Keychain Access, or sign in again), then try again.';
  }
  if (platform === 'win32') {
    return 'Windows Credential Manager is locked. Sign in to Windows again, then try again.';
  }
  return 'The keyring is locked, and no unlock prompt could be shown (or it was dismissed). Unlock your login keyring (Passwords and Keys / Seahorse, or KWallet Manager), then try again.';
}

function deniedMessage(platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return 'Access to the macOS keychain was refused (the prompt was cancelled, or the password was wrong). Try again and choose "Allow" or "Always Allow" when macOS asks; check Trayshare\'s entry in Keychain Access.';
  }
  if (platform === 'win32') {
    return 'Windows Credential Manager refused access to the token. Check that you are signed in as the same user that saved it, then try again.';
  }
  return 'The keyring refused access to the token (the request was cancelled or not allowed). Try again and allow access when the keyring asks.';
}
