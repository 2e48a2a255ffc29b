// What the CLI's log says of the proxy variables: the scheme, host and port of each, never a
// user name or password, however the value spells them (proxy-from-env 2.1.0 takes a value
// without a scheme too, and Node's URL parser takes the last `@` as the end of the credentials).
import { describe, expect, it } from 'vitest';
import { proxyForLog, proxyVariablesSet, UNREADABLE_PROXY } from './proxy-variables';

describe('a proxy variable in the log', () => {
  it.each([
    // No scheme: proxy-from-env gives it the request's, https for HTTPS_PROXY.
    ['HTTPS_PROXY', 'bob:Pw-9Kd@proxy.example:3128', 'https://proxy.example:3128'],
    ['http_proxy', 'bob:Pw-9Kd@proxy.example:3128', 'http://proxy.example:3128'],
    ['ALL_PROXY', 'bob:Pw-9Kd@proxy.example:3128', "proxy.example:3128 (no scheme: the request's)"],
    // No user name.
    ['HTTP_PROXY', 'http://:Pw-9Kd@proxy.example', 'http://proxy.example'],
    // An @ in the password: the host is after the last one.
    ['HTTPS_PROXY', 'http://bob:Pw@9Kd@proxy.example:8080', 'http://proxy.example:8080'],
    ['https_proxy', 'bob:Pw@9Kd@proxy.example:8080', 'https://proxy.example:8080'],
    // The ordinary spellings, and SOCKS.
    ['HTTPS_PROXY', 'http://bob:Pw-9Kd@10.0.0.1:3128', 'http://10.0.0.1:3128'],
    ['HTTPS_PROXY', 'http://proxy.example:3128', 'http://proxy.example:3128'],
    ['all_proxy', 'socks5h://bob:Pw-9Kd@[::1]:1080', 'socks5h://[::1]:1080'],
  ])('%s=%s is logged as %s', (name, value, logged) => {
    expect(proxyForLog(name, value)).toBe(logged);
  });

  it.each([
    ['a host that does not parse', 'http://bob:Pw-9Kd@[proxy'],
    ['a scheme no proxy library takes', 'bob:Pw-9Kd://proxy.example'],
    ['no host', 'http://bob:Pw-9Kd@'],
    ['a PAC file on disk (no host)', 'pac+file:///home/bob/Pw-9Kd.pac'],
  ])('%s: a fixed placeholder, never the text', (_, value) => {
    expect(proxyForLog('HTTPS_PROXY', value)).toBe(UNREADABLE_PROXY);
  });

  it('names each variable set, in either case, and no password reaches the line', () => {
    const env = {
      HTTPS_PROXY: 'bob:Pw-9Kd@proxy.example:3128',
      http_proxy: 'http://:Pw-9Kd@proxy.example',
      ALL_PROXY: 'http://bob:Pw@9Kd@proxy.example:8080',
      NO_PROXY: 'localhost',
    };
    const line = proxyVariablesSet(env).join(', ');
    expect(line).toBe(
      'HTTPS_PROXY=https://proxy.example:3128, http_proxy=http://proxy.example, ALL_PROXY=http://proxy.example:8080',
    );
    expect(line).not.toMatch(/Pw|9Kd|bob/);
  });
});
