import { describe, expect, it } from 'vitest';
import { authTest } from './auth-test';
import {
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from './transport';

function answering(
  res: TransportResponse | TransportError,
): Transport & { calls: TransportRequest[] } {
  const calls: TransportRequest[] = [];
  return {
    calls,
    async request(req) {
      calls.push(req);
      if (res instanceof TransportError) throw res;
      return res;
    },
  };
}
const json = (status: number, body: unknown): TransportResponse => ({
  status,
  headers: {},
  body: JSON.stringify(body),
});
const BASE = 'http://127.0.0.1:4000';

describe('authTest', () => {
  it('POSTs auth.test with the bearer header and returns user and team', async () => {
    const t = answering(json(200, { ok: true, user: 'U0TEST', team: 'T0TEAM', url: 'x' }));
    expect(await authTest(BASE, ' xoxb-token ', t)).toEqual({
      ok: true,
      user: 'U0TEST',
      team: 'T0TEAM',
    });
    expect(t.calls[0]).toMatchObject({
      url: `${BASE}/api/auth.test`,
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-token' },
    });
    expect(t.calls[0]!.url).not.toContain('xoxb');
  });

  it.each(['invalid_auth', 'token_revoked', 'not_authed'])(
    '%s → a credential failure, checked',
    async (code) => {
      const result = await authTest(
        BASE,
        'xoxb-1',
        answering(json(200, { ok: false, error: code })),
      );
      expect(result).toMatchObject({
        ok: false,
        checked: true,
        reason: { class: 'credential', code },
      });
    },
  );

  it('404 → not checked: the service has no auth.test', async () => {
    const result = await authTest(
      BASE,
      'xoxb-1',
      answering({ status: 404, headers: {}, body: 'Not Found' }),
    );
    expect(result).toMatchObject({
      ok: false,
      checked: false,
      reason: { code: 'auth_test_unavailable' },
    });
  });

  it('unknown_method → not checked', async () => {
    const result = await authTest(
      BASE,
      'xoxb-1',
      answering(json(200, { ok: false, error: 'unknown_method' })),
    );
    expect(result).toMatchObject({ ok: false, checked: false });
  });

  it('refuses before sending: no token, a URL as the token, an insecure base URL', async () => {
    const t = answering(json(200, { ok: true }));
    expect(await authTest(BASE, '', t)).toMatchObject({
      ok: false,
      checked: true,
      reason: { code: 'no_token' },
    });
    expect(await authTest(BASE, 'https://hooks.slack.com/services/T/B/x', t)).toMatchObject({
      reason: { code: 'token_is_url' },
    });
    expect(await authTest('http://slack.example', 'xoxb-1', t)).toMatchObject({
      reason: { code: 'base_url_insecure' },
    });
    expect(t.calls).toHaveLength(0);
  });

  it('a network failure is reported with its own message', async () => {
    const result = await authTest(
      BASE,
      'xoxb-1',
      answering(new TransportError('connection_refused', '127.0.0.1:4000 refused the connection.')),
    );
    expect(result).toMatchObject({
      ok: false,
      checked: true,
      reason: {
        class: 'transient',
        code: 'connection_refused',
        message: '127.0.0.1:4000 refused the connection.',
      },
    });
  });

  it('a redirect names the location', async () => {
    const result = await authTest(
      BASE,
      'xoxb-1',
      answering({
        status: 301,
        headers: { location: 'https://new.example/api/auth.test' },
        body: '',
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      reason: { class: 'redirect', location: 'https://new.example/api/auth.test' },
    });
  });

  it('an HTML page → other with the status, pointing at the base URL', async () => {
    const result = await authTest(
      BASE,
      'xoxb-1',
      answering({ status: 200, headers: {}, body: '<html></html>' }),
    );
    expect(result).toMatchObject({
      ok: false,
      checked: true,
      reason: { class: 'other', code: 'http_200' },
    });
    expect(!result.ok && result.reason.message).toMatch(/base URL/);
  });
});
