// The environment variables that can name a proxy, as proxy-from-env 2 reads them (its index.js
// `getProxyForUrl`: `<scheme>_proxy`, `all_proxy`, either case; NO_PROXY aside). A module of its
// own so the CLI's log can name them without loading the request path's proxy code.
const PROXY_VARIABLES = ['https_proxy', 'http_proxy', 'all_proxy'].flatMap((name) => [
  name.toUpperCase(),
  name,
]);

/**
 * The schemes proxy-agent 8 routes (its dist/index.js `proxies`); a value of another scheme is not
 * logged. A PAC file's address is logged like a proxy's (scheme, host, port).
 */
const PROXY_SCHEMES = new Set(
  ['http', 'https', 'socks', 'socks4', 'socks4a', 'socks5', 'socks5h']
    .concat(['pac+data', 'pac+file', 'pac+ftp', 'pac+http', 'pac+https'])
    .map((scheme) => `${scheme}:`),
);

/** What the log says of a value it cannot read as a proxy's address, in place of the value. */
export const UNREADABLE_PROXY = '(not an address Trayshare can read; not logged)';

/**
 * A proxy variable's value as the log may show it: the scheme, host and port only. A user name
 * and password can be spelt in ways a pattern misses (no scheme, no user name, an `@` in the
 * password), so the value is parsed as Node parses it (WHATWG `new URL`, which takes the last
 * `@` as the end of the credentials) and only the parts kept are written; a value that does not
 * parse is never written at all.
 */
export function proxyForLog(name: string, value: string): string {
  // proxy-from-env 2.1.0's index.js getProxyForUrl: a value without "://" is given the
  // request's scheme (`proxy = proto + '://' + proxy`). For `<scheme>_proxy` that is the
  // variable's scheme; ALL_PROXY serves every scheme, so it is read as https (what the CLI's
  // requests to Slack are) and said to be scheme-less.
  const schemeless = !value.includes('://');
  const scheme = name.toLowerCase() === 'http_proxy' ? 'http' : 'https';
  let url: URL;
  try {
    url = new URL(schemeless ? `${scheme}://${value}` : value);
  } catch {
    return UNREADABLE_PROXY;
  }
  if (!PROXY_SCHEMES.has(url.protocol) || url.hostname === '') return UNREADABLE_PROXY;
  if (schemeless && name.toLowerCase() === 'all_proxy') {
    return `${url.host} (no scheme: the request's)`;
  }
  return `${url.protocol}//${url.host}`;
}

/** `NAME=<scheme>//<host>:<port>` for each proxy variable set in `env`, for the log. */
export function proxyVariablesSet(env: NodeJS.ProcessEnv = process.env): string[] {
  return PROXY_VARIABLES.filter((name) => env[name]).map(
    (name) => `${name}=${proxyForLog(name, env[name] as string)}`,
  );
}
