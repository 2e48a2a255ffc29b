import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_INTERVAL_MS, progressMeter } from './progress-meter';

describe('progressMeter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts file bytes only, after the bytes before the file', () => {
    const events: [number, number][] = [];
    const meter = progressMeter(1000, (s, t) => events.push([s, t]), 200);
    meter.accepted(150);
    meter.accepted(100);
    expect(events).toEqual([[50, 1000]]);
  });

  it('holds back reports inside the interval, then sends the latest when it ends', () => {
    const events: number[] = [];
    const meter = progressMeter(10_000, (s) => events.push(s));
    meter.accepted(10);
    meter.accepted(10);
    meter.accepted(10);
    expect(events).toEqual([10]);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(events).toEqual([10, 30]);
  });

  it('a slow trickle of bytes is reported about every interval', () => {
    const events: number[] = [];
    const meter = progressMeter(1_000_000, (s) => events.push(s));
    // 1 second of a 16 KiB write every 16 ms.
    for (let t = 0; t < 1000; t += 16) {
      meter.accepted(16 * 1024);
      vi.advanceTimersByTime(16);
    }
    expect(events.length).toBeGreaterThanOrEqual(8);
    expect(events.length).toBeLessThanOrEqual(11);
    expect(events).toEqual([...events].sort((a, b) => a - b));
  });

  it('reports the last file byte at once, and nothing after stop', () => {
    const events: number[] = [];
    const meter = progressMeter(100, (s) => events.push(s));
    meter.accepted(40);
    meter.accepted(30);
    meter.accepted(30);
    expect(events).toEqual([40, 100]);
    const stopped = progressMeter(100, (s) => events.push(s));
    stopped.accepted(10);
    stopped.accepted(10);
    stopped.stop();
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 2);
    expect(events).toEqual([40, 100, 10]);
  });

  it('an empty file reports 0 of 0 once', () => {
    const events: [number, number][] = [];
    const meter = progressMeter(0, (s, t) => events.push([s, t]), 100);
    meter.accepted(100);
    meter.accepted(20);
    expect(events).toEqual([[0, 0]]);
  });

  it('a stalled upload leaves no timer running; its next bytes are reported at once', () => {
    const events: number[] = [];
    const meter = progressMeter(10_000, (s) => events.push(s));
    meter.accepted(10);
    meter.accepted(10);
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(events).toEqual([10, 20]);
    // Nothing more for a while: the tick that finds nothing new does not re-arm.
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS * 5);
    expect(vi.getTimerCount()).toBe(0);
    meter.accepted(5);
    expect(events).toEqual([10, 20, 25]);
    meter.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
