import { describe, expect, it } from 'vitest';
import { TokenBucketLimiter } from './rate-limiter';

describe('TokenBucketLimiter', () => {
  it('allows a burst of perMinute calls, then says when the next one is possible', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(20, () => now);
    for (let i = 0; i < 20; i++) expect(limiter.take('t')).toEqual({ allowed: true });
    expect(limiter.take('t')).toEqual({ allowed: false, retryAfterSeconds: 3 });
    now += 3000;
    expect(limiter.take('t')).toEqual({ allowed: true });
    expect(limiter.take('t').allowed).toBe(false);
  });

  it('keeps one bucket per key', () => {
    const limiter = new TokenBucketLimiter(1, () => 0);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('lets a call through now and then below one a minute', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(0.5, () => now);
    expect(limiter.take('t').allowed).toBe(true);
    expect(limiter.take('t')).toEqual({ allowed: false, retryAfterSeconds: 120 });
    now += 120_000;
    expect(limiter.take('t').allowed).toBe(true);
  });

  it('holds `burst` calls when given, refilled at the minute rate', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(60, () => now, 3);
    for (let i = 0; i < 3; i++) expect(limiter.take('t')).toEqual({ allowed: true });
    expect(limiter.take('t')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // A long quiet spell fills the bucket to the burst, not to a minute's worth.
    now += 60_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('t')).toEqual({ allowed: true });
    expect(limiter.take('t').allowed).toBe(false);
  });

  it('never limits at 0', () => {
    const limiter = new TokenBucketLimiter(0, () => 0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('t').allowed).toBe(true);
  });
});
