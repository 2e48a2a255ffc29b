import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs, retryPolicy } from './retry';

const fixed = (r: number): RetryPolicy => ({
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  random: () => r,
});

describe('retryDelayMs', () => {
  it('grows exponentially: the top of the jitter range doubles each attempt', () => {
    const top = fixed(0.999_999);
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, top))).toEqual([
      999, 1999, 3999, 7999, 15_999,
    ]);
  });

  it('is capped at maxDelayMs however many attempts', () => {
    const top = fixed(0.999_999);
    expect(retryDelayMs(7, top)).toBe(59_999);
    expect(retryDelayMs(60, top)).toBe(59_999);
    expect(retryDelayMs(5000, top)).toBe(59_999);
  });

  it('uses full jitter: anywhere from 0 up to the exponential ceiling', () => {
    expect(retryDelayMs(3, fixed(0))).toBe(0);
    expect(retryDelayMs(3, fixed(0.5))).toBe(2000);
    const samples = Array.from({ length: 500 }, () => retryDelayMs(3, { ...DEFAULT_RETRY_POLICY }));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(4000);
    // Spread, not a constant: jitter is what keeps clients from coming back in step.
    expect(new Set(samples).size).toBeGreaterThan(100);
  });

  it('never waits less than Retry-After', () => {
    expect(retryDelayMs(1, fixed(0), 30_000)).toBe(30_000);
    expect(retryDelayMs(1, fixed(0.999), 1)).toBe(999);
    // A Retry-After beyond the cap still wins: the service said so.
    expect(retryDelayMs(1, fixed(0.5), 120_000)).toBe(120_000);
  });

  it('treats attempt numbers below 1 as the first', () => {
    expect(retryDelayMs(0, fixed(0.5))).toBe(500);
  });
});

describe('retryPolicy', () => {
  it('fills missing fields with the defaults and ignores undefined', () => {
    expect(retryPolicy()).toEqual({ maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 });
    expect(retryPolicy({ maxAttempts: 2, baseDelayMs: undefined })).toEqual({
      maxAttempts: 2,
      baseDelayMs: 1000,
      maxDelayMs: 60_000,
    });
  });
});
