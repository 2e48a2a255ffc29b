import { describe, expect, it } from 'vitest';
import type { FailureReason } from '../model';
import { decideOnFailure } from './failure-policy';
import { newMeta } from './journal';

const policy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 0.5 };
const ctx = { policy, now: 10_000 };
const reason = (
  cls: FailureReason['class'],
  code: string,
  retryAfterMs?: number,
): FailureReason => ({
  class: cls,
  code,
  message: code,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe('what the queue does with a failure', () => {
  it('retries transient failures with backoff until maxAttempts', () => {
    expect(decideOnFailure(reason('transient', 'connection_reset'), newMeta(), ctx)).toEqual({
      action: 'retry',
      retryAt: 10_500,
      meta: { transientFailures: 1 },
    });
    expect(
      decideOnFailure(reason('transient', 'http_503'), { ...newMeta(), transientFailures: 1 }, ctx),
    ).toEqual({ action: 'retry', retryAt: 11_000, meta: { transientFailures: 2 } });
    expect(
      decideOnFailure(reason('transient', 'http_503'), { ...newMeta(), transientFailures: 2 }, ctx),
    ).toEqual({ action: 'finish', state: 'failed' });
  });

  it('honours Retry-After on a transient failure', () => {
    expect(decideOnFailure(reason('transient', 'http_503', 30_000), newMeta(), ctx)).toMatchObject({
      action: 'retry',
      retryAt: 40_000,
    });
  });

  it('pauses the workspace for a rate limit, with its own bound', () => {
    expect(decideOnFailure(reason('transient', 'ratelimited', 20_000), newMeta(), ctx)).toEqual({
      action: 'rate-limit',
      until: 30_000,
      meta: { rateLimitWaits: 1 },
    });
    // Rate limits do not use up the transient budget...
    const meta = { ...newMeta(), transientFailures: 2, rateLimitWaits: 5 };
    expect(decideOnFailure(reason('transient', 'ratelimited', 1000), meta, ctx).action).toBe(
      'rate-limit',
    );
    // ...but are bounded too.
    expect(
      decideOnFailure(
        reason('transient', 'ratelimited', 1000),
        { ...newMeta(), rateLimitWaits: 2 },
        { ...ctx, maxRateLimitWaits: 2 },
      ),
    ).toEqual({ action: 'finish', state: 'failed' });
  });

  it('asks for a token on a credential failure', () => {
    expect(decideOnFailure(reason('credential', 'token_revoked'), newMeta(), ctx)).toEqual({
      action: 'needs-token',
    });
  });

  it('fails only the item for target, content, input, redirect, retired and other codes', () => {
    for (const cls of ['target', 'content', 'input', 'redirect', 'retired', 'other'] as const) {
      expect(decideOnFailure(reason(cls, 'x'), newMeta(), ctx)).toEqual({
        action: 'finish',
        state: 'failed',
      });
    }
  });

  it('marks an unknown outcome unknown, never retried', () => {
    expect(decideOnFailure(reason('unknown-outcome', 'fatal_error'), newMeta(), ctx)).toEqual({
      action: 'finish',
      state: 'unknown',
    });
  });
});
