import { errorMessage } from '../../portable/error-message';
// What an update failure means for people, from the error electron-updater gives. Codes come
// from builder-util-runtime's newError (ERR_UPDATER_*, ERR_CHECKSUM_MISMATCH), Node's socket
// errors (ECONNREFUSED…) and Chromium's net errors (net::ERR_…) under Electron's net module.

export interface UpdateFailure {
  /** Stable, for the log and tests: offline, feed, checksum, signature, other. */
  kind: 'offline' | 'feed' | 'checksum' | 'signature' | 'other';
  /** In brackets after "Couldn't check for updates". */
  why: string;
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'ENETDOWN',
]);

const OFFLINE_NET_ERRORS =
  /net::ERR_(INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|CONNECTION_(REFUSED|RESET|TIMED_OUT|CLOSED)|NETWORK_CHANGED|ADDRESS_UNREACHABLE|TIMED_OUT|PROXY_CONNECTION_FAILED)/;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export function describeUpdateFailure(error: unknown): UpdateFailure {
  const code = codeOf(error);
  const message = errorMessage(error);
  if (OFFLINE_CODES.has(code) || OFFLINE_NET_ERRORS.test(message)) {
    return { kind: 'offline', why: 'offline' };
  }
  if (code === 'ERR_CHECKSUM_MISMATCH') {
    return { kind: 'checksum', why: 'the download did not match its checksum' };
  }
  // Windows: the installer is not signed by the publisher of the running app
  // (NsisUpdater.verifySignature); macOS: Squirrel.Mac refuses an app not signed alike.
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE' || /signature|not signed|code sign/i.test(message)) {
    return { kind: 'signature', why: 'the update was not signed as this app is' };
  }
  if (
    code.startsWith('ERR_UPDATER_') ||
    (error as { statusCode?: unknown } | null)?.statusCode !== undefined
  ) {
    return { kind: 'feed', why: 'the update server answered something unexpected' };
  }
  return { kind: 'other', why: 'an unexpected error' };
}

/** One short line for the log: the code and the first line of the message, never a stack. */
export function failureLogLine(error: unknown): string {
  const code = codeOf(error);
  const first = errorMessage(error).split('\n')[0]!.slice(0, 300);
  return code ? `${code}: ${first}` : first;
}
