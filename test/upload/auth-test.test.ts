// "Test connection" against the reference service over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authTest } from '../../main/core/upload/auth-test';
import { type Harness, OTHER_TOKEN, startHarness, TOKEN } from './harness';

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

describe('authTest', () => {
  it('a known token → ok, with who it belongs to', async () => {
    const result = await authTest(h.service.url, TOKEN, h.transport);
    expect(result.ok).toBe(true);
    expect(result.ok && result.user).toBe('u0test');
    expect(result.ok && typeof result.team).toBe('string');
    const other = await authTest(`${h.service.url}/`, OTHER_TOKEN, h.transport);
    expect(other.ok && other.user).toBe('u0other');
  });

  it('an unknown token → credential/invalid_auth, checked', async () => {
    expect(await authTest(h.service.url, 'xoxb-nobody', h.transport)).toMatchObject({
      ok: false,
      checked: true,
      reason: { class: 'credential', code: 'invalid_auth' },
    });
  });

  it('a service without auth.test (404) → not checked', async () => {
    h.service.injectFault({ fault: { kind: 'status', status: 404 }, method: 'auth.test' });
    expect(await authTest(h.service.url, TOKEN, h.transport)).toMatchObject({
      ok: false,
      checked: false,
    });
  });

  it('a service that answers unknown_method → not checked', async () => {
    h.service.injectFault({
      fault: { kind: 'error', error: 'unknown_method' },
      method: 'auth.test',
    });
    expect(await authTest(h.service.url, TOKEN, h.transport)).toMatchObject({
      ok: false,
      checked: false,
    });
  });

  it('a webhook URL as the token never reaches the service', async () => {
    const before = h.requests.length;
    expect(
      await authTest(h.service.url, 'https://hooks.slack.com/services/T0/B0/x', h.transport),
    ).toMatchObject({
      ok: false,
      reason: { code: 'token_is_url' },
    });
    expect(h.requests.length).toBe(before);
  });
});
