// Chooses a transport per request from the system's proxy settings. Electron's `net` follows
// the system proxy but cannot send a Content-Length (Chromium refuses the header), so its
// uploads go chunked: the service cannot refuse a too-large file from the headers. When the
// system says DIRECT, Node's transport is used instead and sends the exact length; only
// proxied requests go through `net`.

import type { Transport, TransportRequest } from './transport';

export interface ProxyRoutingOptions {
  /** The PAC-style answer for a URL: "DIRECT", or e.g. "PROXY host:3128; DIRECT". */
  resolveProxy: (url: string) => Promise<string>;
  direct: Transport;
  proxied: Transport;
}

export function createProxyRoutingTransport(options: ProxyRoutingOptions): Transport {
  return {
    async request(req: TransportRequest) {
      let route: string;
      try {
        route = await options.resolveProxy(req.url);
      } catch {
        // When the system cannot say, let Chromium's stack apply whatever it knows.
        route = '';
      }
      const direct = route.trim().toUpperCase() === 'DIRECT';
      return (direct ? options.direct : options.proxied).request(req);
    },
    // Only where the system says DIRECT: a connection opened ahead must not go around a proxy.
    warm(origin, count) {
      options
        .resolveProxy(origin)
        .then((route) => {
          if (route.trim().toUpperCase() === 'DIRECT') options.direct.warm?.(origin, count);
        })
        .catch(() => {});
    },
  };
}
