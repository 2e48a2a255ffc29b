import { describe, expect, it } from 'vitest';
import type { TransportError } from './transport';
import { createDeadline } from './transport';

// A hand-driven clock and timer list, so the test says exactly when each timeout fires.
function manualTime() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimer: (id: unknown) => {
      timers.delete(id as number);
    },
    pending: () => timers.size,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
}

function deadline(idleTimeoutMs: number) {
  const time = manualTime();
  const errors: TransportError[] = [];
  const d = createDeadline({
    host: 'files.example',
    idleTimeoutMs,
    onTimeout: (error) => errors.push(error),
    setTimer: time.setTimer,
    clearTimer: time.clearTimer,
    now: time.now,
  });
  return { d, time, errors };
}

describe("a request's connect and idle timeouts", () => {
  it('fails with connect_timeout when nothing connects in time', () => {
    const { d, time, errors } = deadline(5000);
    d.arm('connect_timeout', 1000);
    time.advance(999);
    expect(errors).toEqual([]);
    time.advance(1);
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['connect_timeout', 'No connection to files.example within 1 s.'],
    ]);
  });

  it('switches to the idle timeout at the first sign of life', () => {
    const { d, time, errors } = deadline(5000);
    d.arm('connect_timeout', 1000);
    time.advance(500);
    d.touch();
    // Past the connect timeout, within the idle one.
    time.advance(4000);
    expect(errors).toEqual([]);
    time.advance(1000);
    expect(errors.map((e) => e.code)).toEqual(['idle_timeout']);
    expect(errors[0]?.message).toBe('files.example went silent: nothing sent or received for 5 s.');
  });

  it('counts the idle time from the last sign of life, however many there were', () => {
    const { d, time, errors } = deadline(5000);
    d.touch();
    for (let i = 0; i < 100; i++) {
      time.advance(100);
      d.touch();
    }
    // 10 s of steady progress: no timeout, and still a single timer.
    expect(errors).toEqual([]);
    expect(time.pending()).toBe(1);
    time.advance(4999);
    expect(errors).toEqual([]);
    time.advance(1);
    expect(errors.map((e) => e.code)).toEqual(['idle_timeout']);
  });

  it('never fires once stopped, and ignores touches after', () => {
    const { d, time, errors } = deadline(5000);
    d.touch();
    time.advance(4000);
    d.stop();
    d.touch();
    time.advance(60_000);
    expect(errors).toEqual([]);
    expect(time.pending()).toBe(0);
  });
});
