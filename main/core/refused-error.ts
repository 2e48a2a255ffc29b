/** A share refused before anything was queued; the message is meant for the person, as it is. */
export class ShareRefusedError extends Error {
  override name = 'ShareRefusedError';
}
