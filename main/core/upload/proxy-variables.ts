// The environment variables that can name a proxy, as proxy-from-env 2 reads them (its index.js
// `getProxyForUrl`: `<scheme>_proxy`, `all_proxy`, either case; NO_PROXY aside). A module of its
// own so the CLI's log can name them without loading the request path's proxy code.
const PROXY_VARIABLES = ['https_proxy', 'http_proxy', 'all_proxy'].flatMap((name) => [
  name.toUpperCase(),
  name,
]);

/** `NAME=value` for each proxy variable set in `env`, for the log (redacted on its way out). */
export function proxyVariablesSet(env: NodeJS.ProcessEnv = process.env): string[] {
  return PROXY_VARIABLES.filter((name) => env[name]).map((name) => `${name}=${env[name]}`);
}
