// Every row of the contract's error table (../shared/spec/service-contract.md), over real HTTP
// against the reference service, through uploadWithRetries as the queue would use it: which
// outcomes are retried, which are not, and what the person is told.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FailureReason } from '../../main/core/model';
import { uploadWithRetries } from '../../main/core/upload/engine';
import { type Harness, reasonOf, recordingSleep, startHarness } from './harness';

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

const FAST = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

let n = 0;
/** Uploads a fresh file (with `times` faults of `code` injected) and says what happened. */
async function sendWithError(code: string, opts: { record?: boolean; times?: number } = {}) {
  const name = `row-${code}-${n++}.txt`;
  const f = await h.file(name, 2000);
  h.service.injectFault({
    fault: { kind: 'error', error: code, ...(opts.record ? { record: true } : {}) },
    times: opts.times ?? 1,
  });
  const before = h.requests.length;
  const { slept, sleep } = recordingSleep();
  const result = await uploadWithRetries(
    h.job(f.path, name, { channels: ['C0GENERAL', 'C0DESIGN'] }),
    {
      transport: h.transport,
      retry: FAST,
      sleep,
    },
  );
  return { result, attempts: h.requests.length - before, slept, recorded: h.recorded(name) };
}

const rows: [string, string[]][] = [
  [
    'credential',
    [
      'not_authed',
      'invalid_auth',
      'token_revoked',
      'token_expired',
      'account_inactive',
      'missing_scope',
      'not_allowed_token_type',
      'no_permission',
    ],
  ],
  [
    'target',
    [
      'channel_not_found',
      'invalid_channel',
      'not_in_channel',
      'posting_to_general_channel_denied',
      'channels_limit_exceeded',
    ],
  ],
  [
    'content',
    [
      'no_file_data',
      'invalid_form_data',
      'blocked_file_type',
      'file_uploads_disabled',
      'storage_limit_reached',
      'file_upload_size_restricted',
    ],
  ],
  ['retired', ['method_deprecated', 'deprecated_endpoint', 'unknown_method']],
];

describe('rows that fail at once and are never retried', () => {
  for (const [cls, codes] of rows) {
    for (const code of codes) {
      it(`${code} → failed (${cls}), one attempt`, async () => {
        const { result, attempts, slept } = await sendWithError(code);
        expect(result.kind).toBe('failed');
        expect(reasonOf(result)).toMatchObject({ class: cls, code });
        expect(attempts).toBe(1);
        expect(slept).toEqual([]);
        if (cls === 'target') {
          expect(reasonOf(result).channels).toEqual(['C0GENERAL', 'C0DESIGN']);
          expect(reasonOf(result).message).toContain('C0GENERAL or C0DESIGN');
        }
        if (cls === 'retired') {
          expect(reasonOf(result).message).toMatch(
            /no longer offers files\.upload.*external upload protocol/,
          );
        }
      });
    }
  }

  it('another code → failed (other) with the raw code shown, one attempt', async () => {
    // A code Slack documents for no method (team_added_to_org, used here before, is documented
    // and now has a class: main/core/upload/documented-errors.ts).
    const { result, attempts } = await sendWithError('unheard_of_code');
    expect(reasonOf(result)).toMatchObject({ class: 'other', code: 'unheard_of_code' });
    expect(reasonOf(result).message).toContain('"unheard_of_code"');
    expect(attempts).toBe(1);
  });
});

describe('transient row: retried, then delivered once', () => {
  it.each(['ratelimited', 'service_unavailable', 'request_timeout'])(
    '%s → retried → delivered',
    async (code) => {
      const { result, attempts, slept, recorded } = await sendWithError(code);
      expect(result.kind).toBe('delivered');
      expect(attempts).toBe(2);
      expect(slept).toHaveLength(1);
      expect(recorded).toHaveLength(1);
    },
  );

  it('HTTP 429 + Retry-After → waits at least that long, then delivered', async () => {
    const f = await h.file('ratelimit.txt', 500);
    h.service.injectFault({ fault: { kind: 'ratelimit', retryAfter: 7 } });
    const { slept, sleep } = recordingSleep();
    const reasons: FailureReason[] = [];
    const result = await uploadWithRetries(h.job(f.path, 'ratelimit.txt'), {
      transport: h.transport,
      retry: FAST,
      sleep,
      onRetry: (_a, _d, reason) => reasons.push(reason),
    });
    expect(result.kind).toBe('delivered');
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(7000);
    expect(reasons[0]).toMatchObject({
      class: 'transient',
      code: 'ratelimited',
      retryAfterMs: 7000,
    });
    expect(h.recorded('ratelimit.txt')).toHaveLength(1);
  });

  it('HTTP 503 + Retry-After → waits at least that long, then delivered', async () => {
    const f = await h.file('unavailable.txt', 500);
    h.service.injectFault({ fault: { kind: 'status', status: 503, retryAfter: 4 } });
    const { slept, sleep } = recordingSleep();
    const result = await uploadWithRetries(h.job(f.path, 'unavailable.txt'), {
      transport: h.transport,
      retry: FAST,
      sleep,
    });
    expect(result.kind).toBe('delivered');
    expect(slept).toEqual([4000]);
    expect(h.recorded('unavailable.txt')).toHaveLength(1);
  });

  it('the rate limit of the service itself: 429 with its Retry-After, then through', async () => {
    let clock = Date.parse('2025-06-01T12:00:00Z');
    const limited = await startHarness({ config: { uploadsPerMinute: 1 }, now: () => clock });
    try {
      const a = await limited.file('first.txt', 100);
      const b = await limited.file('second.txt', 100);
      expect(
        (
          await uploadWithRetries(limited.job(a.path, 'first.txt'), {
            transport: limited.transport,
          })
        ).kind,
      ).toBe('delivered');
      // The recorded sleep moves the service's clock instead of waiting a minute.
      const { slept, sleep } = recordingSleep((ms) => {
        clock += ms;
      });
      const result = await uploadWithRetries(limited.job(b.path, 'second.txt'), {
        transport: limited.transport,
        retry: FAST,
        sleep,
      });
      expect(result.kind).toBe('delivered');
      expect(slept).toEqual([60_000]);
      expect(limited.requests).toHaveLength(3);
      expect(limited.service.uploads().map((u) => u.name)).toEqual(['first.txt', 'second.txt']);
    } finally {
      await limited.close();
    }
  });

  it('gives up after maxAttempts, still transient, still not delivered', async () => {
    const { result, attempts, slept, recorded } = await sendWithError('service_unavailable', {
      times: 10,
    });
    expect(reasonOf(result)).toMatchObject({ class: 'transient', code: 'service_unavailable' });
    expect(attempts).toBe(3);
    expect(slept).toHaveLength(2);
    expect(recorded).toEqual([]);
  });

  it('connection refused → retried (nothing was sent), bounded', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    const f = await h.file('refused.txt', 100);
    const { slept, sleep } = recordingSleep();
    const result = await uploadWithRetries(
      h.job(f.path, 'refused.txt', { baseUrl: `http://127.0.0.1:${port}` }),
      { transport: h.transport, retry: FAST, sleep },
    );
    expect(reasonOf(result)).toMatchObject({ class: 'transient', code: 'connection_refused' });
    expect(slept).toHaveLength(2);
  });
});

describe('outcome unknown row: never retried automatically', () => {
  it('fatal_error (recorded: some of it may have happened) → unknown, one attempt, recorded once', async () => {
    const { result, attempts, recorded } = await sendWithError('fatal_error', { record: true });
    expect(result.kind).toBe('unknown');
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'fatal_error' });
    expect(reasonOf(result).message).toMatch(/may have been delivered/);
    expect(attempts).toBe(1);
    expect(recorded).toHaveLength(1);
  });
});
