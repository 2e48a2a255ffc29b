// Every fault mode of the reference service against the engine, over real HTTP: what is
// retried (nothing can have been processed) and what becomes "may have been delivered".
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uploadWithRetries } from '../../main/core/upload/engine';
import {
  type Harness,
  reasonOf,
  recordingSleep,
  startCountingServer,
  startHarness,
  TOKEN,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.service.clearFaults();
});
afterAll(async () => {
  await h.close();
});

const FAST = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 };

async function send(name: string, size: number, opts: { idleTimeoutMs?: number } = {}) {
  const f = await h.file(name, size);
  const before = h.requests.length;
  const { slept, sleep } = recordingSleep();
  let bodyCompleteCalls = 0;
  const result = await uploadWithRetries(h.job(f.path, name), {
    transport: h.transport,
    retry: FAST,
    sleep,
    beforeBodyComplete: () => {
      bodyCompleteCalls++;
    },
    ...opts,
  });
  return {
    f,
    result,
    attempts: h.requests.length - before,
    slept,
    bodyCompleteCalls,
    recorded: h.recorded(name),
  };
}

describe('fault modes', () => {
  it('reset mid-body → retried and delivered once', async () => {
    // Larger than the socket buffers, so the reset comes while the body is still going out.
    h.service.injectFault({ fault: { kind: 'reset-mid-body', afterBytes: 64 * 1024 } });
    const { f, result, attempts, slept, recorded, bodyCompleteCalls } = await send(
      'mid-body.bin',
      32 * 1024 * 1024,
    );
    expect(result.kind).toBe('delivered');
    expect(attempts).toBe(2);
    expect(slept).toHaveLength(1);
    expect(bodyCompleteCalls).toBe(1);
    expect(recorded).toEqual([expect.objectContaining({ size: f.size, sha256: f.sha256 })]);
  });

  it('reset after the whole body → unknown, not retried, recorded once', async () => {
    h.service.injectFault({ fault: { kind: 'reset-after-body' } });
    const { result, attempts, slept, recorded } = await send('after-body.bin', 300_000);
    expect(result.kind).toBe('unknown');
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'connection_reset' });
    expect(reasonOf(result).message).toMatch(/may have been delivered/);
    expect(attempts).toBe(1);
    expect(slept).toEqual([]);
    expect(recorded).toHaveLength(1);
  });

  it.each([502, 504])(
    "a proxy's %i HTML page after the body → unknown, not retried",
    async (status) => {
      h.service.injectFault({ fault: { kind: 'proxy-html', status } });
      const { result, attempts, recorded } = await send(`proxy-${status}.bin`, 10_000);
      expect(result.kind).toBe('unknown');
      expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: `http_${status}` });
      expect(reasonOf(result).message).toMatch(/HTML page/);
      expect(attempts).toBe(1);
      expect(recorded).toHaveLength(1);
    },
  );

  it('an HTML page with HTTP 200 → unknown, not retried', async () => {
    h.service.injectFault({ fault: { kind: 'proxy-html', status: 200 } });
    const { result, attempts } = await send('proxy-200.bin', 10_000);
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'invalid_answer' });
    expect(attempts).toBe(1);
  });

  it('truncated JSON → unknown, not retried', async () => {
    h.service.injectFault({ fault: { kind: 'truncated-json' } });
    const { result, attempts, recorded } = await send('truncated.bin', 10_000);
    expect(result.kind).toBe('unknown');
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'invalid_answer' });
    expect(attempts).toBe(1);
    expect(recorded).toHaveLength(1);
  });

  it('a slow answer beyond the idle timeout → unknown, not retried', async () => {
    h.service.injectFault({ fault: { kind: 'slow', delayMs: 3000 } });
    const { result, attempts, slept, recorded } = await send('slow.bin', 10_000, {
      idleTimeoutMs: 300,
    });
    expect(result.kind).toBe('unknown');
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'idle_timeout' });
    expect(attempts).toBe(1);
    expect(slept).toEqual([]);
    expect(recorded).toHaveLength(1);
  });

  it('a slow answer within the idle timeout is simply waited for', async () => {
    h.service.injectFault({ fault: { kind: 'slow', delayMs: 200 } });
    const { result } = await send('slow-ok.bin', 10_000, { idleTimeoutMs: 5000 });
    expect(result.kind).toBe('delivered');
  });

  it('503 with Retry-After → waits at least that long, then delivered once', async () => {
    h.service.injectFault({ fault: { kind: 'status', status: 503, retryAfter: 2 } });
    const { result, slept, recorded } = await send('503.bin', 10_000);
    expect(result.kind).toBe('delivered');
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(2000);
    expect(recorded).toHaveLength(1);
  });

  it('ratelimit → retried after Retry-After, delivered once', async () => {
    h.service.injectFault({ fault: { kind: 'ratelimit', retryAfter: 3 }, times: 2 });
    const { result, slept, attempts, recorded } = await send('429.bin', 10_000);
    expect(result.kind).toBe('delivered');
    expect(attempts).toBe(3);
    expect(slept.every((ms) => ms >= 3000)).toBe(true);
    expect(slept).toHaveLength(2);
    expect(recorded).toHaveLength(1);
  });

  it('redirect → failed naming the location; nothing reaches the redirect target', async () => {
    const target = await startCountingServer();
    try {
      const location = `${target.url}/api/files.upload`;
      h.service.injectFault({ fault: { kind: 'redirect', location, status: 307 } });
      const { result, attempts, slept, recorded } = await send('redirected.bin', 10_000);
      expect(result.kind).toBe('failed');
      expect(reasonOf(result)).toMatchObject({ class: 'redirect', code: 'http_307', location });
      expect(reasonOf(result).message).toContain(location);
      expect(reasonOf(result).message).not.toContain(TOKEN);
      expect(attempts).toBe(1);
      expect(slept).toEqual([]);
      expect(recorded).toEqual([]);
      expect(target.hits()).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('an error answer at an HTTP error status is classified by its code', async () => {
    h.service.injectFault({ fault: { kind: 'error', error: 'invalid_auth', status: 401 } });
    const { result, attempts } = await send('error-401.bin', 1000);
    expect(reasonOf(result)).toMatchObject({ class: 'credential', code: 'invalid_auth' });
    expect(attempts).toBe(1);
  });
});
