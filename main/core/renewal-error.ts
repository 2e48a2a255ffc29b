// The error a signed-in workspace's token renewal (auth/renewal.ts) throws, kept in the plain
// model so the modules that read a token (delivery, intake, the channel lists) can tell it apart
// without importing the sign-in module (auth/).
import type { FailureReason } from './model';

/** A renewal that could not give a token; `reason` is what the upload fails or waits with. */
export class RenewalError extends Error {
  constructor(readonly reason: FailureReason) {
    super(reason.message);
    this.name = 'RenewalError';
  }
}
