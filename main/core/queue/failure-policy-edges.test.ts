// The edges of the failure policy the first test file leaves open (found by mutation testing,
// docs/mutation.md): HTTP 429 is a rate limit like Slack's `ratelimited`, the default bound on
// rate-limit waits, where a bound is reached exactly, and what a thrown or stopped attempt says.
import { describe, expect, it } from 'vitest';
import type { FailureReason } from '../model';
import { cancelNote, decideOnFailure, internalErrorResult } from './failure-policy';
import { newMeta } from './journal';

const policy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 0.5 };
const ctx = { policy, now: 10_000 };
const transient = (code: string, retryAfterMs?: number): FailureReason => ({
  class: 'transient',
  code,
  message: code,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe('rate limits', () => {
  it('treats HTTP 429 as a rate limit: the workspace pauses, the transient budget is untouched', () => {
    const meta = { ...newMeta(), transientFailures: 2 };
    expect(decideOnFailure(transient('http_429', 5000), meta, ctx)).toEqual({
      action: 'rate-limit',
      until: 15_000,
      meta: { rateLimitWaits: 1 },
    });
  });

  it('waits out 30 rate limits by default and fails the item at the 31st', () => {
    const at = (rateLimitWaits: number) =>
      decideOnFailure(transient('ratelimited', 1000), { ...newMeta(), rateLimitWaits }, ctx);
    expect(at(29)).toMatchObject({ action: 'rate-limit', meta: { rateLimitWaits: 30 } });
    expect(at(30)).toEqual({ action: 'finish', state: 'failed' });
  });

  it('reaching the bound exactly still waits; passing it fails', () => {
    const bounded = { ...ctx, maxRateLimitWaits: 2 };
    const at = (rateLimitWaits: number) =>
      decideOnFailure(transient('ratelimited', 1000), { ...newMeta(), rateLimitWaits }, bounded);
    expect(at(1)).toMatchObject({ action: 'rate-limit', meta: { rateLimitWaits: 2 } });
    expect(at(2)).toEqual({ action: 'finish', state: 'failed' });
  });

  it('a transient failure that is not a rate limit uses the transient budget, not the rate-limit one', () => {
    const meta = { ...newMeta(), rateLimitWaits: 29, transientFailures: 0 };
    expect(decideOnFailure(transient('connection_reset'), meta, ctx)).toEqual({
      action: 'retry',
      retryAt: 10_500,
      meta: { transientFailures: 1 },
    });
  });
});

describe('an attempt that threw', () => {
  it('after the whole body went: may have been delivered (unknown), saying why', () => {
    expect(internalErrorResult(new Error('boom'), true)).toEqual({
      kind: 'unknown',
      reason: {
        class: 'unknown-outcome',
        code: 'internal_error',
        message:
          'The upload stopped with an internal error after the whole file was sent, so it may have been delivered: boom',
      },
    });
  });

  it('before the body went: failed, saying why, whatever was thrown', () => {
    expect(internalErrorResult('a string', false)).toEqual({
      kind: 'failed',
      reason: {
        class: 'other',
        code: 'internal_error',
        message: 'The upload stopped with an internal error: a string',
      },
    });
  });
});

describe('a stopped attempt', () => {
  it("the person's own cancel before the body went says nothing", () => {
    expect(cancelNote(false, true)).toBeNull();
  });

  it('stopped otherwise before the body went: aborted', () => {
    expect(cancelNote(false, false)).toEqual({
      class: 'other',
      code: 'aborted',
      message: 'The upload was stopped before the whole file was sent.',
    });
  });

  it('stopped after the body went, by the person or not: may have been received', () => {
    const note = {
      class: 'unknown-outcome',
      code: 'cancelled_after_body',
      message:
        'Cancelled after the whole file was sent: the service may have received it. Check the channels before sending it again.',
    };
    expect(cancelNote(true, true)).toEqual(note);
    expect(cancelNote(true, false)).toEqual(note);
  });
});
