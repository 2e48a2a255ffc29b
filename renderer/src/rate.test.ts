import { describe, expect, it } from 'vitest';
import { RateMeter } from './rate';

describe('RateMeter', () => {
  it('measures speed over the recent window and the time left from it', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 1000);
    meter.record('a', 500_000, 1500);
    meter.record('a', 1_000_000, 2000);
    const rate = meter.rate('a', 3_000_000);
    expect(rate?.bytesPerSecond).toBe(1_000_000);
    expect(rate?.remainingMs).toBe(2000);
  });

  it('gives no estimate before half a second of samples', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 1000);
    meter.record('a', 100, 1200);
    expect(meter.rate('a', 1000)).toBeUndefined();
  });

  it('starts over when a new attempt sends from zero again', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 900_000, 1000);
    meter.record('a', 0, 2000);
    meter.record('a', 100_000, 3000);
    expect(meter.rate('a', 1_000_000)?.bytesPerSecond).toBe(100_000);
  });

  it('reports a stalled upload as having no end in sight', () => {
    const meter = new RateMeter();
    meter.record('a', 10, 0);
    meter.record('a', 10, 1000);
    expect(meter.rate('a', 100)?.remainingMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('forgets items that stopped sending', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 10, 1000);
    meter.keepOnly(new Set());
    expect(meter.rate('a', 100)).toBeUndefined();
  });
});
