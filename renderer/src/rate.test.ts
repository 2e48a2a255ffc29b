import { describe, expect, it } from 'vitest';
import { RateMeter, STALL_MS } from './rate';

describe('RateMeter', () => {
  it('measures speed over the recent window and the time left from it', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 1000);
    meter.record('a', 500_000, 1500);
    meter.record('a', 1_000_000, 2000);
    const rate = meter.rate('a', 3_000_000, 2000);
    expect(rate?.bytesPerSecond).toBe(1_000_000);
    expect(rate?.remainingMs).toBe(2000);
  });

  it('is a rate over time: it falls while no bytes arrive, without any new update', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 1_000_000, 1000);
    expect(meter.rate('a', 9_000_000, 1000)?.bytesPerSecond).toBe(1_000_000);
    expect(meter.rate('a', 9_000_000, 2000)?.bytesPerSecond).toBe(500_000);
  });

  it('counts only the last few seconds', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 10_000_000, 1000); // a fast start
    for (let t = 2000; t <= 10_000; t += 1000) meter.record('a', 10_000_000 + (t - 1000) * 100, t);
    expect(meter.rate('a', 1e9, 10_000)?.bytesPerSecond).toBeCloseTo(100_000, 0);
  });

  it('gives no estimate before half a second of samples', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 1000);
    meter.record('a', 100, 1200);
    expect(meter.rate('a', 1000, 1200)).toBeUndefined();
  });

  it('starts over when a new attempt sends from zero again', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 900_000, 1000);
    meter.record('a', 0, 2000);
    meter.record('a', 100_000, 3000);
    expect(meter.rate('a', 1_000_000, 3000)?.bytesPerSecond).toBe(100_000);
  });

  it('says stalled only after several seconds without a byte', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 10, 1000);
    expect(meter.rate('a', 100, 1000 + STALL_MS - 1)?.remainingMs).not.toBe(Infinity);
    expect(meter.rate('a', 100, 1000 + STALL_MS)?.remainingMs).toBe(Infinity);
  });

  it('forgets items that stopped sending, and everything on reset', () => {
    const meter = new RateMeter();
    meter.record('a', 0, 0);
    meter.record('a', 10, 1000);
    meter.record('b', 0, 0);
    meter.record('b', 10, 1000);
    meter.keepOnly(new Set(['b']));
    expect(meter.rate('a', 100, 1000)).toBeUndefined();
    meter.reset();
    expect(meter.rate('b', 100, 1000)).toBeUndefined();
  });
});
