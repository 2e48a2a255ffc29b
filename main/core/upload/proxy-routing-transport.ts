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
  // When the system cannot say, it is not DIRECT: Chromium's stack applies whatever it knows.
  const isDirect = (url: string): Promise<boolean> =>
    options.resolveProxy(url).then(
      (route) => route.trim().toUpperCase() === 'DIRECT',
      () => false,
    );
  return {
    async request(req: TransportRequest) {
      return ((await isDirect(req.url)) ? options.direct : options.proxied).request(req);
    },
    // Only where the system says DIRECT: a connection opened ahead must not go around a proxy.
    warm(origin, count) {
      void isDirect(origin).then((direct) => {
        if (direct) options.direct.warm?.(origin, count);
      });
    },
  };
}
