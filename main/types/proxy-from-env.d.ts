// proxy-from-env ships no types.
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from HTTP(S)_PROXY/ALL_PROXY/NO_PROXY, or '' to go direct. */
  export function getProxyForUrl(url: string | URL, env?: NodeJS.ProcessEnv): string;
}
