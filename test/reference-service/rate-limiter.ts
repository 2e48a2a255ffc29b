// Slack's per-token rate limit as a token bucket: `perMinute` calls in a burst (or `burst`,
// when given), refilled continuously at `perMinute` a minute. The clock is injected so tests need
// not wait. A burst smaller than the rate lets a test meet the limit with a few files and still
// be told a Retry-After of one second, as a busy Slack workspace may answer.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    private readonly burst = 0,
  ) {}

  /** Takes one call from `key`'s bucket, or says how long until one is available. */
  take(key: string): RateDecision {
    if (this.perMinute <= 0) return { allowed: true };
    const perMs = this.perMinute / 60_000;
    // Below one a minute the bucket still holds one call, or no call would ever pass.
    const capacity = Math.max(1, this.burst > 0 ? this.burst : this.perMinute);
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: t };
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, t - bucket.at) * perMs);
    bucket.at = t;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
