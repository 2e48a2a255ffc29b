import { describe, expect, it } from 'vitest';
import { apiUrl, checkBaseUrl, checkToken, isLoopbackHost } from './credentials';

describe('checkToken', () => {
  it('accepts a token', () => {
    expect(checkToken('xoxb-123-456-abc')).toEqual({ ok: true });
    expect(checkToken('  xoxp-1-2  ')).toEqual({ ok: true });
  });

  it.each([undefined, null, '', '   '])('refuses no token (%j)', (token) => {
    expect(checkToken(token)).toEqual({
      ok: false,
      code: 'no_token',
      message: 'No token: this workspace has no token saved. Add one in Settings.',
    });
  });

  it.each([
    'https://hooks.slack.com/services/T000/B000/XXXX',
    'http://127.0.0.1:8080/api',
    'hooks.slack.com/services/T000/B000/XXXX',
  ])('refuses a URL as the token: %s', (token) => {
    const result = checkToken(token);
    expect(result).toMatchObject({ ok: false, code: 'token_is_url' });
    expect(!result.ok && result.message).toMatch(/URL, not a token.*incoming-webhook/);
  });

  it('refuses a token with spaces or line breaks inside', () => {
    expect(checkToken('xoxb-1 2')).toEqual({
      ok: false,
      code: 'token_malformed',
      message: 'The token contains spaces or line breaks; paste it again as one piece.',
    });
    expect(checkToken('xoxb-1\nxoxb-2')).toMatchObject({ code: 'token_malformed' });
  });

  it('never repeats the token in its messages', () => {
    for (const token of ['https://hooks.example/services/T/B/secret-part', 'xoxb-secret part']) {
      const result = checkToken(token);
      expect(!result.ok && result.message).not.toContain('secret');
    }
  });
});

describe('checkBaseUrl', () => {
  it.each([
    'https://slack.com',
    'https://slack.com/',
    'http://127.0.0.1:4000',
    'http://127.1.2.3',
    'http://localhost:8080',
    'http://[::1]:9000',
  ])('accepts %s', (url) => {
    expect(checkBaseUrl(url)).toEqual({ ok: true });
  });

  it('refuses something that is not a URL', () => {
    expect(checkBaseUrl('slack.com')).toEqual({
      ok: false,
      code: 'base_url_invalid',
      message: '"slack.com" is not a URL; the base URL looks like https://slack.com.',
    });
  });

  it('refuses plain http to a host that is not loopback, naming the host', () => {
    expect(checkBaseUrl('http://files.example.com')).toEqual({
      ok: false,
      code: 'base_url_insecure',
      message:
        'Refusing plain http to files.example.com: the token would cross the network unencrypted. Use https:// (http is allowed only for localhost).',
    });
    // 127.0.0.1 spelled inside a longer name is not loopback.
    expect(checkBaseUrl('http://127.0.0.1.example.com')).toMatchObject({
      code: 'base_url_insecure',
    });
  });

  it.each([
    'https://hooks.slack.com',
    'https://hooks.slack.com/services/T000/B000/XXXX',
    'https://chat.example.com/services/T000/B000',
  ])('refuses a webhook address: %s', (url) => {
    expect(checkBaseUrl(url)).toEqual({
      ok: false,
      code: 'base_url_webhook',
      message:
        'That base URL is an incoming-webhook address; webhooks cannot upload files. Use the service address, such as https://slack.com.',
    });
  });

  it('refuses a user name or password in the URL', () => {
    expect(checkBaseUrl('https://user:pw@slack.com')).toEqual({
      ok: false,
      code: 'base_url_credentials',
      message:
        'The base URL must not contain a user name or password; the token goes in its own field.',
    });
  });

  it('refuses other schemes', () => {
    expect(checkBaseUrl('ftp://files.example.com')).toEqual({
      ok: false,
      code: 'base_url_invalid',
      message: 'The base URL must start with https:// (got ftp://).',
    });
  });
});

describe('loopback and API URLs', () => {
  it('knows loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.255.0.9', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.1', 'localhost.example.com', '128.0.0.1'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('builds the method URL with or without a trailing slash', () => {
    expect(apiUrl('https://slack.com/', 'files.upload')).toBe('https://slack.com/api/files.upload');
    expect(apiUrl('http://127.0.0.1:4000', 'auth.test')).toBe(
      'http://127.0.0.1:4000/api/auth.test',
    );
  });
});
