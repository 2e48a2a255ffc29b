// What the queue does with a failed attempt, per the contract's table: retry only what the
// service cannot have processed (transient), pause the workspace for a rate limit or a refused
// token, and fail only the item for everything else.
import { errorMessage } from '../../portable/error-message';
import type { FailureReason } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { isRateLimit, type RetryPolicy, retryDelayMs } from '../upload/retry';
import type { ItemMeta } from './journal';

const DEFAULT_MAX_RATE_LIMIT_WAITS = 30;

export type FailureDecision =
  /** Wait out a backoff (or the service's Retry-After), then try this item again. */
  | { action: 'retry'; retryAt: number; meta: Partial<ItemMeta> }
  /** Rate limited: the whole workspace waits until `until`. */
  | { action: 'rate-limit'; until: number; meta: Partial<ItemMeta> }
  /** The token was refused: the workspace waits for a new one. */
  | { action: 'needs-token' }
  | { action: 'finish'; state: 'failed' | 'unknown' };

export interface FailureContext {
  policy: RetryPolicy;
  now: number;
  /** Rate-limit answers an item may wait out before it fails. */
  maxRateLimitWaits?: number;
}

export function decideOnFailure(
  reason: FailureReason,
  meta: ItemMeta,
  ctx: FailureContext,
): FailureDecision {
  switch (reason.class) {
    case 'transient': {
      // A rate limit is the service pacing us, not a fault: it has its own, larger bound, so a
      // long batch that keeps meeting the limit is not failed for it.
      if (isRateLimit(reason)) {
        const waits = meta.rateLimitWaits + 1;
        if (waits > (ctx.maxRateLimitWaits ?? DEFAULT_MAX_RATE_LIMIT_WAITS)) break;
        const until = ctx.now + retryDelayMs(waits, ctx.policy, reason.retryAfterMs);
        return { action: 'rate-limit', until, meta: { rateLimitWaits: waits } };
      }
      const failures = meta.transientFailures + 1;
      if (failures >= ctx.policy.maxAttempts) break;
      const retryAt = ctx.now + retryDelayMs(failures, ctx.policy, reason.retryAfterMs);
      return { action: 'retry', retryAt, meta: { transientFailures: failures } };
    }
    case 'credential':
      return { action: 'needs-token' };
    case 'unknown-outcome':
      return { action: 'finish', state: 'unknown' };
  }
  return { action: 'finish', state: 'failed' };
}

/** An attempt that threw: "may have been delivered" once its whole body went, else failed. */
export function internalErrorResult(err: unknown, bodySent: boolean): AttemptResult {
  const why = errorMessage(err);
  return bodySent
    ? {
        kind: 'unknown',
        reason: {
          class: 'unknown-outcome',
          code: 'internal_error',
          message: `The upload stopped with an internal error after the whole file was sent, so it may have been delivered: ${why}`,
        },
      }
    : {
        kind: 'failed',
        reason: {
          class: 'other',
          code: 'internal_error',
          message: `The upload stopped with an internal error: ${why}`,
        },
      };
}

/** Why a stopped attempt ended: nothing for the person's own cancel before the body went. */
export function cancelNote(bodySent: boolean, cancelledByPerson: boolean): FailureReason | null {
  if (!bodySent) {
    return cancelledByPerson
      ? null
      : {
          class: 'other',
          code: 'aborted',
          message: 'The upload was stopped before the whole file was sent.',
        };
  }
  return {
    class: 'unknown-outcome',
    code: 'cancelled_after_body',
    message:
      'Cancelled after the whole file was sent: the service may have received it. Check the channels before sending it again.',
  };
}
