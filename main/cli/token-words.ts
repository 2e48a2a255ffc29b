// The core words a refused token for the app, whose way out is Settings; on the command line
// the way out is `trayshare login`. Keychain problems keep their own words (unlock, set up).
import type { FailureReason } from '../core/model';

const LOGIN_FIX = 'run `trayshare login` with a new token, then `trayshare queue --run`';

/** A file waits for a new token (not for the keychain, nor for a workspace lost with a damaged settings file). */
export function waitsForToken(reason: FailureReason | undefined): boolean {
  return (
    reason?.class === 'credential' &&
    !reason.code.startsWith('keychain_') &&
    reason.code !== 'workspace_lost'
  );
}

/** What a file waiting for a token says on the command line. */
export function tokenWait(reason: FailureReason): string {
  if (reason.code === 'sign_in_expired') {
    return 'the sign-in has run out: run `trayshare login --slack` for this workspace, then `trayshare queue --run`.';
  }
  const what =
    reason.code === 'no_token'
      ? 'no token is saved for this workspace'
      : `the token was refused (${reason.code})`;
  return `${what}: ${LOGIN_FIX}.`;
}

/** The core's message with its Settings advice turned into the command line's. */
export function inCliWords(message: string): string {
  return message
    .replace(
      'Paste a new token for this workspace in Settings.',
      'Run `trayshare login` with a new token, then `trayshare queue --run`.',
    )
    .replace(
      'add it in Settings to send the waiting files.',
      'save it with `trayshare login`, then run `trayshare queue --run`.',
    )
    .replace('paste the new token in Settings.', 'save the new token with `trayshare login`.')
    .replace('Add one in Settings.', 'Save one with `trayshare login`.')
    .replace(
      'sign in again to send the waiting files.',
      'run `trayshare login --slack` for it, then `trayshare queue --run`.',
    );
}

/** Exit code of a command that left files waiting for a token the service refused (or that was removed). */
export const EXIT_TOKEN_REFUSED = 4;
