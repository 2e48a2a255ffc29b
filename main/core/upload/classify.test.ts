import { describe, expect, it } from 'vitest';
import type { FailureReason } from '../model';
import type { AttemptResult } from './attempt';
import {
  type ClassifyContext,
  classifyResponse,
  classifyTransportError,
  parseRetryAfter,
} from './classify';
import { DOCUMENTED_ERRORS } from './documented-errors';
import { channelList, SERVICE_ERRORS } from './error-messages';
import { TransportError, type TransportErrorCode, type TransportResponse } from './transport';

const url = 'http://127.0.0.1:4000/api/files.upload';
const sent: ClassifyContext = { channels: ['C0GENERAL', 'C0DESIGN'], url, bodyComplete: true };
const notSent: ClassifyContext = { ...sent, bodyComplete: false };

function res(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): TransportResponse {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}
const slackError = (code: string, extra: object = {}) =>
  res(200, { ok: false, error: code, ...extra });

function reason(result: AttemptResult): FailureReason {
  if (result.kind !== 'failed' && result.kind !== 'unknown')
    throw new Error(`no reason in ${result.kind}`);
  return result.reason;
}

// The contract's table (../shared/spec/service-contract.md), row by row.
const contract: Record<string, string[]> = {
  credential: [
    'not_authed',
    'invalid_auth',
    'token_revoked',
    'token_expired',
    'account_inactive',
    'missing_scope',
    'not_allowed_token_type',
    'no_permission',
  ],
  target: [
    'channel_not_found',
    'invalid_channel',
    'not_in_channel',
    'posting_to_general_channel_denied',
    'posting_to_channel_denied',
    'channels_limit_exceeded',
  ],
  content: [
    'no_file_data',
    'invalid_form_data',
    'blocked_file_type',
    'file_uploads_disabled',
    'storage_limit_reached',
    'file_upload_size_restricted',
  ],
  transient: ['ratelimited', 'service_unavailable', 'request_timeout'],
  retired: ['method_deprecated', 'deprecated_endpoint', 'unknown_method'],
};

describe('service error codes, one per contract row', () => {
  it('knows exactly the codes the contract names, fatal_error and the other documented ones', () => {
    expect(Object.keys(SERVICE_ERRORS).sort()).toEqual(
      [
        ...new Set([
          ...Object.values(contract).flat(),
          'fatal_error',
          ...Object.keys(DOCUMENTED_ERRORS),
        ]),
      ].sort(),
    );
  });

  for (const [cls, codes] of Object.entries(contract)) {
    for (const code of codes) {
      it(`${code} → failed, class ${cls}, never the raw code alone`, () => {
        const result = classifyResponse(slackError(code), sent);
        expect(result.kind).toBe('failed');
        const r = reason(result);
        expect(r).toMatchObject({ class: cls, code });
        expect(r.message.length).toBeGreaterThan(20);
        expect(r.message).not.toContain(code);
      });
    }
  }

  it('credential errors ask for a new token', () => {
    for (const code of contract.credential!) {
      expect(reason(classifyResponse(slackError(code), sent)).message).toMatch(/token/i);
    }
  });

  it('target errors name the channels of the request', () => {
    for (const code of contract.target!) {
      const r = reason(classifyResponse(slackError(code), sent));
      expect(r.channels).toEqual(['C0GENERAL', 'C0DESIGN']);
      expect(r.message).toContain('C0GENERAL or C0DESIGN');
    }
  });

  it('not_in_channel says to invite the app', () => {
    const r = reason(
      classifyResponse(slackError('not_in_channel'), { ...sent, channels: ['C0DESIGN'] }),
    );
    expect(r.message).toBe(
      "Trayshare's token is not a member of C0DESIGN: invite the app to the channel.",
    );
  });

  it('missing_scope names the scope the service says is needed', () => {
    const r = reason(
      classifyResponse(slackError('missing_scope', { needed: 'files:write' }), sent),
    );
    expect(r.message).toContain('files:write');
  });

  it('retired codes say files.upload is gone and point to the external protocol', () => {
    for (const code of contract.retired!) {
      const r = reason(classifyResponse(slackError(code), sent));
      expect(r.message).toMatch(/no longer offers files\.upload/);
      expect(r.message).toMatch(/external upload protocol/);
    }
  });

  it.each(['fatal_error', 'internal_error'])(
    '%s → outcome unknown (some of it may have happened)',
    (code) => {
      const result = classifyResponse(slackError(code), sent);
      expect(result.kind).toBe('unknown');
      expect(reason(result)).toMatchObject({ class: 'unknown-outcome', code });
      expect(reason(result).message).toMatch(/may have been delivered/);
    },
  );

  it('posting_to_channel_denied names the one channel refused', () => {
    const r = reason(
      classifyResponse(slackError('posting_to_channel_denied'), { ...sent, channels: ['C0ANN'] }),
    );
    expect(r).toMatchObject({ class: 'target', channels: ['C0ANN'] });
    expect(r.message).toMatch(/may not post to C0ANN:/);
  });

  it('any other code → class other, the raw code shown', () => {
    const r = reason(classifyResponse(slackError('file_is_haunted'), sent));
    expect(r).toMatchObject({ class: 'other', code: 'file_is_haunted' });
    expect(r.message).toContain('"file_is_haunted"');
  });

  it('a code named like an Object property is still just an unknown code', () => {
    expect(reason(classifyResponse(slackError('constructor'), sent))).toMatchObject({
      class: 'other',
      code: 'constructor',
    });
  });

  it('ok:false without a code is other/unknown_error', () => {
    expect(reason(classifyResponse(res(200, { ok: false }), sent))).toMatchObject({
      class: 'other',
      code: 'unknown_error',
    });
  });

  it('a Slack error at a 4xx status is still classified by its code', () => {
    expect(
      reason(classifyResponse(res(401, { ok: false, error: 'invalid_auth' }), sent)).class,
    ).toBe('credential');
  });
});

describe('success', () => {
  it('200 + ok:true → delivered with the file object, tolerating missing and extra fields', () => {
    const body = {
      ok: true,
      file: {
        id: 'F1',
        name: 'a.txt',
        size: 3,
        permalink: 'http://x/F1',
        channels: ['C1', 7],
        extra: {},
      },
      warning: 'something',
    };
    expect(classifyResponse(res(200, body), sent)).toEqual({
      kind: 'delivered',
      file: { id: 'F1', name: 'a.txt', size: 3, permalink: 'http://x/F1', channels: ['C1'] },
    });
    expect(classifyResponse(res(200, { ok: true }), sent)).toEqual({ kind: 'delivered', file: {} });
  });
});

describe('transient row', () => {
  it('429 → transient ratelimited with Retry-After in ms', () => {
    const r = reason(
      classifyResponse(res(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' }), sent),
    );
    expect(r).toMatchObject({ class: 'transient', code: 'ratelimited', retryAfterMs: 7000 });
    expect(r.message).toMatch(/wait 7 s/);
  });

  it('429 without Retry-After is still transient, with no wait given', () => {
    const r = reason(classifyResponse(res(429, ''), sent));
    expect(r.class).toBe('transient');
    expect(r.retryAfterMs).toBeUndefined();
  });

  it('503 → transient with Retry-After, even after the whole body was sent', () => {
    expect(
      reason(classifyResponse(res(503, '<html>busy</html>', { 'retry-after': '2' }), sent)),
    ).toMatchObject({
      class: 'transient',
      code: 'http_503',
      retryAfterMs: 2000,
    });
  });

  it('service_unavailable and ratelimited codes carry Retry-After too', () => {
    const r = reason(
      classifyResponse(
        res(200, { ok: false, error: 'service_unavailable' }, { 'retry-after': '3' }),
        sent,
      ),
    );
    expect(r).toMatchObject({ class: 'transient', retryAfterMs: 3000 });
  });

  it.each<TransportErrorCode>(['connection_refused', 'dns_failure', 'connect_timeout'])(
    '%s → transient whether or not the body counts as sent (no connection, nothing sent)',
    (code) => {
      for (const ctx of [sent, notSent]) {
        const r = reason(classifyTransportError(new TransportError(code, 'x.'), ctx));
        expect(r).toMatchObject({ class: 'transient', code });
      }
    },
  );

  it.each<TransportErrorCode>(['connection_reset', 'idle_timeout', 'network_error'])(
    '%s before the whole body was sent → transient',
    (code) => {
      const result = classifyTransportError(new TransportError(code, 'Broke.'), notSent);
      expect(result.kind).toBe('failed');
      expect(reason(result)).toMatchObject({ class: 'transient', code });
      expect(reason(result).message).toMatch(/nothing was delivered/);
    },
  );

  it('502/504 or another 5xx before the whole body was sent → transient (nothing complete reached the service)', () => {
    for (const status of [500, 502, 504]) {
      expect(reason(classifyResponse(res(status, '<html></html>'), notSent)).class).toBe(
        'transient',
      );
    }
  });

  it('408 → transient', () => {
    expect(reason(classifyResponse(res(408, ''), sent))).toMatchObject({
      class: 'transient',
      code: 'http_408',
    });
  });
});

describe('outcome unknown row', () => {
  it.each<TransportErrorCode>(['connection_reset', 'idle_timeout', 'network_error'])(
    '%s after the whole body was sent → unknown, may have been delivered',
    (code) => {
      const result = classifyTransportError(new TransportError(code, 'Broke.'), sent);
      expect(result.kind).toBe('unknown');
      expect(reason(result)).toMatchObject({ class: 'unknown-outcome', code });
      expect(reason(result).message).toMatch(/may have been delivered/);
    },
  );

  it.each([502, 504])('HTTP %i with an HTML page after the body → unknown', (status) => {
    const result = classifyResponse(res(status, '<!DOCTYPE html><h1>Bad gateway</h1>'), sent);
    expect(result.kind).toBe('unknown');
    expect(reason(result)).toMatchObject({ class: 'unknown-outcome', code: `http_${status}` });
    expect(reason(result).message).toMatch(/HTML page/);
  });

  it.each([
    ['truncated JSON', '{"ok":true,"file":{"id":"F1","na'],
    ['an HTML page', '<html><body>Welcome</body></html>'],
    ['an empty body', ''],
    ['JSON without ok', '{"file":{"id":"F1"}}'],
    ['plain text', 'OK'],
  ])('2xx with %s → unknown', (_what, body) => {
    for (const status of [200, 201]) {
      const result = classifyResponse(res(status, body), sent);
      expect(result.kind).toBe('unknown');
      expect(reason(result)).toMatchObject({ class: 'unknown-outcome', code: 'invalid_answer' });
    }
  });

  it('500 after the whole body was sent → unknown (it may have stored the file first)', () => {
    expect(classifyResponse(res(500, 'oops'), sent).kind).toBe('unknown');
  });
});

describe('redirects', () => {
  it('3xx → failed/redirect naming the absolute location', () => {
    for (const status of [301, 302, 307, 308]) {
      const r = reason(
        classifyResponse(
          res(status, '', { location: 'https://elsewhere.example/api/files.upload' }),
          sent,
        ),
      );
      expect(r).toMatchObject({
        class: 'redirect',
        code: `http_${status}`,
        location: 'https://elsewhere.example/api/files.upload',
      });
      expect(r.message).toContain('https://elsewhere.example/api/files.upload');
    }
  });

  it('a relative location is resolved against the request URL', () => {
    const r = reason(classifyResponse(res(302, '', { location: '/moved' }), sent));
    expect(r.location).toBe('http://127.0.0.1:4000/moved');
  });

  it('a redirect without a location still fails as a redirect', () => {
    const r = reason(classifyResponse(res(302, ''), sent));
    expect(r.class).toBe('redirect');
    expect(r.location).toBeUndefined();
    expect(r.message).toMatch(/without saying where/);
  });
});

describe('other HTTP answers', () => {
  it('404 → other, pointing at the base URL', () => {
    const r = reason(classifyResponse(res(404, '<html>Not Found</html>'), sent));
    expect(r).toMatchObject({ class: 'other', code: 'http_404' });
    expect(r.message).toContain(url);
  });

  it('413 → content (too large), never retried', () => {
    expect(reason(classifyResponse(res(413, ''), notSent))).toMatchObject({
      class: 'content',
      code: 'http_413',
    });
  });

  it.each([400, 401, 403, 418])('%i without a Slack answer → other with the status', (status) => {
    const r = reason(classifyResponse(res(status, '<html>denied</html>'), sent));
    expect(r).toMatchObject({ class: 'other', code: `http_${status}` });
    expect(r.message).toContain(`HTTP ${status}`);
  });
});

describe('transport errors outside the table', () => {
  it('aborted → cancelled', () => {
    expect(classifyTransportError(new TransportError('aborted', 'x'), sent)).toEqual({
      kind: 'cancelled',
    });
  });

  it('a TLS failure → other, not retried', () => {
    expect(
      reason(classifyTransportError(new TransportError('tls_error', 'bad cert'), notSent)).class,
    ).toBe('other');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['30', 30_000],
    [' 5 ', 5000],
    ['0', 0],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10_000],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0],
  ])('%j → %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, '', '-3', '1.5', 'soon', '12abc'])('%j → undefined', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('channelList', () => {
  it('reads naturally for one, two and many channels', () => {
    expect(channelList(['C1'])).toBe('C1');
    expect(channelList(['C1', 'C2'])).toBe('C1 or C2');
    expect(channelList(['C1', 'C2', 'C3'])).toBe('one of C1, C2, C3');
    expect(channelList([])).toBe('the channels of this upload');
  });
});
