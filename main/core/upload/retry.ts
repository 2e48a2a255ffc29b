// When to try a transient failure again: exponential backoff with full jitter (a random delay
// between 0 and the capped exponential), so many clients hit by the same outage do not come
// back in step. A Retry-After from the service is a floor: never come back sooner.

import type { FailureReason } from '../model';

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** [0, 1); injected by tests. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
};

export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY };
  for (const [key, value] of Object.entries(partial)) {
    if (value !== undefined) Object.assign(policy, { [key]: value });
  }
  return policy;
}

/**
 * The delay before the next attempt, after attempt number `attempt` (1 = the first) failed.
 * The exponential part is capped at maxDelayMs; retryAfterMs is not capped.
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** exponent overflows to Infinity long after the cap applies; Math.min handles both.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  const random = policy.random ?? Math.random;
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, Math.ceil(retryAfterMs ?? 0));
}

/** The service pacing us (HTTP 429, or Slack's `ratelimited`), not a fault of the request. */
export function isRateLimit(reason: FailureReason): boolean {
  return (
    reason.class === 'transient' && (reason.code === 'ratelimited' || reason.code === 'http_429')
  );
}
