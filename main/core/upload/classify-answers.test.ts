// What each answer tells the person, word for word, and what is kept of it (found by mutation
// testing, docs/mutation.md: classify.test.ts checks the class and code of each contract row,
// these check the reason shown, the wait asked for, and that a strange answer never breaks
// the classification). Each message below is what Queue and History show for that answer.
import { describe, expect, it } from 'vitest';
import type { AttemptResult } from './attempt';
import { type ClassifyContext, classifyResponse, classifyTransportError } from './classify';
import { TransportError, type TransportResponse } from './transport';

const url = 'http://127.0.0.1:4000/api/files.upload';
const sent: ClassifyContext = { channels: ['C0GENERAL'], url, bodyComplete: true };
const notSent: ClassifyContext = { ...sent, bodyComplete: false };
const MAY = 'It may have been delivered: check the channel before sending it again.';

function res(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): TransportResponse {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

const failedWith = (reason: object): AttemptResult => ({ kind: 'failed', reason }) as AttemptResult;
const unknownWith = (code: string, message: string): AttemptResult => ({
  kind: 'unknown',
  reason: { class: 'unknown-outcome', code, message },
});

describe('a delivered answer whose file object is odd still counts as delivered', () => {
  it.each([
    ['null', null],
    ['a string', 'F1'],
    ['a number', 7],
  ])('file is %s: delivered, nothing kept of it', (_what, file) => {
    expect(classifyResponse(res(200, { ok: true, file }), sent)).toStrictEqual({
      kind: 'delivered',
      file: {},
    });
  });

  it('only well-typed fields are kept: a link that is not text is no link', () => {
    const file = {
      id: 7,
      name: null,
      title: ['x'],
      permalink: false,
      url_private: {},
      size: '3',
      channels: 'C1',
    };
    expect(classifyResponse(res(200, { ok: true, file }), sent)).toStrictEqual({
      kind: 'delivered',
      file: {},
    });
  });

  it('every well-typed field is kept', () => {
    const file = {
      id: 'F1',
      name: 'a.txt',
      title: 'A',
      permalink: 'https://x/F1',
      url_private: 'https://x/p/F1',
      size: 3,
      channels: ['C1'],
    };
    expect(classifyResponse(res(200, { ok: true, file }), sent)).toStrictEqual({
      kind: 'delivered',
      file,
    });
  });

  it('ok:true at a status that is not a success is not taken as delivered', () => {
    expect(classifyResponse(res(400, { ok: true }), sent)).toStrictEqual(
      failedWith({
        class: 'other',
        code: 'http_400',
        message: 'The service answered HTTP 400 (an incomplete or unexpected JSON answer).',
      }),
    );
  });
});

describe('service error codes: the reason holds what applies to it only', () => {
  it('an empty error code is unknown_error', () => {
    const r = classifyResponse(res(200, { ok: false, error: '' }), sent);
    expect(r).toMatchObject({ kind: 'failed', reason: { class: 'other', code: 'unknown_error' } });
  });

  it('a refused token names no channels and no wait, even with a Retry-After', () => {
    expect(
      classifyResponse(
        res(200, { ok: false, error: 'invalid_auth' }, { 'retry-after': '5' }),
        sent,
      ),
    ).toStrictEqual(
      failedWith({
        class: 'credential',
        code: 'invalid_auth',
        message: expect.stringMatching(/^The service does not accept this token\. /),
      }),
    );
  });

  it('a transient code without Retry-After carries no wait', () => {
    expect(
      classifyResponse(res(200, { ok: false, error: 'service_unavailable' }), sent),
    ).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'service_unavailable',
        message: 'The service is temporarily unavailable.',
      }),
    );
  });

  it.each([
    ['chat:write', 'chat:write'],
    [5, 'files:write'],
    [undefined, 'files:write'],
  ])('missing_scope with needed=%j names %s', (needed, scope) => {
    const r = classifyResponse(res(200, { ok: false, error: 'missing_scope', needed }), sent);
    expect(r).toMatchObject({
      reason: {
        message: `This token may not upload files (it lacks the ${scope} permission). Add the scope to the app, reinstall it, and paste the new token in Settings.`,
      },
    });
  });
});

describe('waits the service asks for', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('a Retry-After date is read against the attempt’s clock', () => {
    const r = classifyResponse(res(429, '', { 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), {
      ...sent,
      now: () => now,
    });
    expect(r).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'ratelimited',
        message:
          'The service is limiting how fast uploads may be sent (rate limited). It asked to wait 10 s.',
        retryAfterMs: 10_000,
      }),
    );
  });

  it('429 without Retry-After: no wait named, none kept', () => {
    expect(classifyResponse(res(429, ''), sent)).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'ratelimited',
        message: 'The service is limiting how fast uploads may be sent (rate limited).',
      }),
    );
  });

  it('503: the words, and the wait only when asked for', () => {
    const message = 'The service is temporarily unavailable (HTTP 503); nothing was delivered.';
    expect(classifyResponse(res(503, ''), sent)).toStrictEqual(
      failedWith({ class: 'transient', code: 'http_503', message }),
    );
    expect(classifyResponse(res(503, '', { 'retry-after': '4' }), sent)).toStrictEqual(
      failedWith({ class: 'transient', code: 'http_503', message, retryAfterMs: 4000 }),
    );
  });
});

describe('a gateway or the service failing: what it sent back, and whether the file may be there', () => {
  it.each([502, 504])('HTTP %i from a gateway', (status) => {
    expect(classifyResponse(res(status, '\n  <!DOCTYPE html><p>down</p>'), sent)).toStrictEqual(
      unknownWith(
        `http_${status}`,
        `A gateway in front of the service answered HTTP ${status} (an HTML page) after the whole file was sent. ${MAY}`,
      ),
    );
    expect(classifyResponse(res(status, ''), notSent)).toStrictEqual(
      failedWith({
        class: 'transient',
        code: `http_${status}`,
        message: `A gateway in front of the service answered HTTP ${status} (an empty answer) before the file was fully sent; nothing was delivered.`,
      }),
    );
  });

  it('HTTP 500 from the service itself, before and after the whole file', () => {
    expect(classifyResponse(res(500, '[1, 2'), sent)).toStrictEqual(
      unknownWith(
        'http_500',
        `The service answered HTTP 500 (an incomplete or unexpected JSON answer) after the whole file was sent. ${MAY}`,
      ),
    );
    expect(classifyResponse(res(500, 'Error <html>'), notSent)).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'http_500',
        message:
          'The service answered HTTP 500 (an answer that is not JSON) before the file was fully sent; nothing was delivered.',
      }),
    );
  });

  it('2xx without a Slack-style answer', () => {
    expect(classifyResponse(res(200, '   '), sent)).toStrictEqual(
      unknownWith(
        'invalid_answer',
        `The service answered HTTP 200 with an empty answer instead of a Slack-style answer. ${MAY}`,
      ),
    );
  });

  it('408, 413 and another 4xx', () => {
    expect(classifyResponse(res(408, ''), sent)).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'http_408',
        message: 'The service timed out waiting for the upload (HTTP 408); nothing was delivered.',
      }),
    );
    expect(classifyResponse(res(413, ''), sent)).toStrictEqual(
      failedWith({
        class: 'content',
        code: 'http_413',
        message: 'The file is larger than the service accepts (HTTP 413).',
      }),
    );
    expect(classifyResponse(res(403, '<html>no</html>'), sent)).toStrictEqual(
      failedWith({
        class: 'other',
        code: 'http_403',
        message: 'The service answered HTTP 403 (an HTML page).',
      }),
    );
    expect(classifyResponse(res(403, 'denied [policy 7] {x}'), sent)).toStrictEqual(
      failedWith({
        class: 'other',
        code: 'http_403',
        message: 'The service answered HTTP 403 (an answer that is not JSON).',
      }),
    );
  });
});

describe('redirects', () => {
  it('HTTP 300 is a redirect too', () => {
    expect(classifyResponse(res(300, '', { location: '/moved' }), sent)).toMatchObject({
      kind: 'failed',
      reason: { class: 'redirect', code: 'http_300', location: 'http://127.0.0.1:4000/moved' },
    });
  });

  it('a location that is no URL is shown as it came', () => {
    const r = classifyResponse(res(302, '', { location: 'http://[::1' }), sent);
    expect(r).toMatchObject({
      kind: 'failed',
      reason: {
        class: 'redirect',
        location: 'http://[::1',
        message: expect.stringMatching(
          /^The service redirected the request to http:\/\/\[::1 \(HTTP 302\)\./,
        ),
      },
    });
  });
});

describe('a connection that failed: the words say whether anything was delivered', () => {
  it('no connection: nothing was delivered', () => {
    expect(
      classifyTransportError(new TransportError('connection_refused', 'Nothing listens.'), sent),
    ).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'connection_refused',
        message: 'Nothing listens. Nothing was delivered.',
      }),
    );
  });

  it('a connection lost after the whole file: may have been delivered', () => {
    expect(
      classifyTransportError(new TransportError('connection_reset', 'It broke.'), sent),
    ).toStrictEqual(
      unknownWith(
        'connection_reset',
        `The whole file was sent, then no answer came: It broke. ${MAY}`,
      ),
    );
    expect(
      classifyTransportError(new TransportError('connection_reset', 'It broke.'), notSent),
    ).toStrictEqual(
      failedWith({
        class: 'transient',
        code: 'connection_reset',
        message: 'It broke. The file was not fully sent, so nothing was delivered.',
      }),
    );
  });
});
