/**
 * Something a person asked for (a share, a retry, a token to save, a pasted image) refused
 * before anything was queued or saved; the message is meant for the person, as it is.
 */
export class RefusedError extends Error {
  override name = 'RefusedError';
}
