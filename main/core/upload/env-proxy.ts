// The CLI's proxy: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY as curl reads them
// (proxy-from-env), tunnelled by proxy-agent (CONNECT for https and http proxies, SOCKS for
// socks://). Through a CONNECT tunnel the request is unchanged, Content-Length included.
// Direct requests share kept-alive connections per origin instead (node-transport.ts).
import type { Agent } from 'node:http';

/**
 * Whether `env` names a proxy for `protocol` at all: the variables proxy-from-env 2 reads
 * (`<scheme>_proxy`, `all_proxy`, either case; its index.js `getProxyForUrl`). Without one,
 * neither library is loaded (resolving and loading proxy-from-env's package cost every send
 * 1–10 ms at start; bench/notes.md, start-up).
 */
function namesProxy(env: NodeJS.ProcessEnv, protocol: string): boolean {
  const scheme = protocol.replace(/:$/, '');
  return [`${scheme}_proxy`, 'all_proxy'].some(
    (key) => Boolean(env[key]) || Boolean(env[key.toUpperCase()]),
  );
}

/** An agent for `url` when the environment names a proxy for it; undefined to go direct. */
export async function proxyAgentFor(
  url: URL,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Agent | undefined> {
  // proxy-from-env reads process.env whatever it is given: ask both, as it would.
  if (!namesProxy(env, url.protocol) && !namesProxy(process.env, url.protocol)) return undefined;
  const { getProxyForUrl } = await import('proxy-from-env');
  const proxy = getProxyForUrl(url.href, env);
  if (!proxy) return undefined;
  // Loaded only when a proxy is named: proxy-agent and what it imports cost every CLI start
  // about 60 ms of CPU and 20 MB of memory (measured in bench/notes.md).
  const { ProxyAgent } = await import('proxy-agent');
  // keepAlive off: the tunnel is closed with the request, as a direct connection is.
  return new ProxyAgent({ getProxyForUrl: () => proxy, keepAlive: false });
}
