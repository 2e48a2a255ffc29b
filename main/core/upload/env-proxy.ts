// The CLI's proxy: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY as curl reads them
// (proxy-from-env), tunnelled by proxy-agent (CONNECT for https and http proxies, SOCKS for
// socks://). Through a CONNECT tunnel the request is unchanged, Content-Length included.
// Direct requests share kept-alive connections per origin instead (node-transport.ts).
import type { Agent } from 'node:http';
import { getProxyForUrl } from 'proxy-from-env';

/** An agent for `url` when the environment names a proxy for it; undefined to go direct. */
export async function proxyAgentFor(
  url: URL,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Agent | undefined> {
  const proxy = getProxyForUrl(url.href, env);
  if (!proxy) return undefined;
  // Loaded only when a proxy is named: proxy-agent and what it imports cost every CLI start
  // about 60 ms of CPU and 20 MB of memory (measured in bench/notes.md).
  const { ProxyAgent } = await import('proxy-agent');
  // keepAlive off: the tunnel is closed with the request, as a direct connection is.
  return new ProxyAgent({ getProxyForUrl: () => proxy, keepAlive: false });
}
