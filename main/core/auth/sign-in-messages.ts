// One plain sentence per way a sign-in can end without signing in, for the window and the CLI.

import type { SignInEnd, SignInFailure } from '../api';

function failed(reason: SignInFailure, message: string): SignInEnd {
  return { ok: false, reason, message };
}

function waited(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return seconds === 1 ? 'a second' : `${seconds} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

export const signInMessages = {
  cancelled: () => failed('cancelled', 'The sign-in was cancelled; nothing was saved.'),
  /** The person said the account that signed in is not theirs, or not the one to use. */
  notKept: (user: string, team: string, revoked: boolean) =>
    failed(
      'cancelled',
      `You did not keep the sign-in of ${user} in ${team}, so nothing was saved${revoked ? ' and the sign-in was ended at the service.' : ', but the service could not be reached to end that sign-in: it lasts there until it expires.'}`,
    ),
  /** Confirmed too late: cancelled, replaced by another sign-in, or left waiting too long. */
  noLongerWaiting: () =>
    failed(
      'timeout',
      'This sign-in no longer waits to be kept (it was cancelled, another one began, or it waited too long), so nothing was saved: sign in again.',
    ),
  accessDenied: () =>
    failed(
      'access_denied',
      'You chose not to allow Trayshare in the browser, so nothing was connected.',
    ),
  timeout: (ms: number) =>
    failed(
      'timeout',
      `Nobody approved in the browser within ${waited(ms)}, so the sign-in was stopped; nothing was saved.`,
    ),
  invalidClientId: (clientId: string) =>
    failed(
      'invalid_client_id',
      `Slack does not know the client ID "${clientId}": ask your team's admin for the Trayshare app's client ID (it looks like 1234567890.1234567890).`,
    ),
  badRedirectUri: (redirectUri: string) =>
    failed(
      'bad_redirect_uri',
      `The Slack app does not list Trayshare's redirect URL (${redirectUri}): your team's admin must add it under OAuth & Permissions.`,
    ),
  /** Each port with what holds it where the OS can tell: "53682 by rclone (process 4242)". */
  portsInUse: (held: readonly string[]) =>
    failed(
      'port_in_use',
      `${held.length === 1 ? 'Port' : 'Every port'} where Trayshare receives the answer from the browser is taken (${held.join('; ')}): close ${held.length === 1 ? 'that program' : 'one of those programs'} (or finish the other sign-in) and try again.`,
    ),
  noBrowser: (detail: string) =>
    failed(
      'no_browser',
      `No browser could be opened (${detail}): set a default web browser and try again (from a terminal, "trayshare login --slack --no-browser" prints the link to open yourself).`,
    ),
  unreachable: (detail: string) =>
    failed(
      'service_unreachable',
      `The service could not be reached to finish signing in (${detail}); nothing was saved: check the connection and try again.`,
    ),
  wrongTeam: (got: string, want: string) =>
    failed(
      'wrong_team',
      `You signed in to ${got}, but this workspace is ${want}: sign in to ${want} instead; nothing was changed.`,
    ),
  otherService: (name: string, own: string, asked: string) =>
    failed(
      'other_service',
      `${name} is a workspace at ${own}, so it cannot be signed in at ${asked}: its sign-in would move to another service. To use ${asked}, add it as a new workspace; nothing was changed.`,
    ),
  /** The workspace moved to another origin while the browser tab waited (settings/workspace-tokens.ts says where). */
  moved: (detail: string) => failed('other', `The sign-in did not finish: ${detail}`),
  keychain: (detail: string) =>
    failed(
      'keychain',
      `The sign-in worked but the keychain refused to keep it, so nothing was saved: ${detail}`,
    ),
  other: (detail: string) =>
    failed('other', `The sign-in did not finish: ${detail} Nothing was saved.`),
};
