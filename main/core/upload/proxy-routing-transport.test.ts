import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from './node-transport';
import { createProxyRoutingTransport } from './proxy-routing-transport';
import type { Transport, TransportRequest } from './transport';

let url: string;
let seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers);
  req.resume();
  req.on('end', () => res.end('{"ok":true}'));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/files.upload`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function recording(): Transport & { calls: TransportRequest[] } {
  const calls: TransportRequest[] = [];
  return {
    calls,
    request: async (req) => {
      calls.push(req);
      return { status: 200, headers: {}, body: '{"ok":true,"via":"proxy"}' };
    },
  };
}

async function* body() {
  yield new TextEncoder().encode('hello');
}

const request = (): TransportRequest => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'text/plain' },
  body: body(),
  contentLength: 5,
  connectTimeoutMs: 5000,
  idleTimeoutMs: 5000,
});

describe('createProxyRoutingTransport', () => {
  it('sends DIRECT requests through the direct transport, with their exact Content-Length', async () => {
    seen = [];
    const proxied = recording();
    const transport = createProxyRoutingTransport({
      resolveProxy: async () => 'DIRECT',
      direct: createNodeTransport(),
      proxied,
    });
    const response = await transport.request(request());
    expect(response.status).toBe(200);
    expect(seen[0]?.['content-length']).toBe('5');
    expect(proxied.calls).toHaveLength(0);
  });

  it.each([
    ['a proxy', 'PROXY proxy.corp:3128; DIRECT'],
    ['a SOCKS proxy', 'SOCKS5 127.0.0.1:1080'],
  ])(
    'sends requests through the system-proxy transport when the system names %s',
    async (_, pac) => {
      seen = [];
      const proxied = recording();
      const transport = createProxyRoutingTransport({
        resolveProxy: async () => pac,
        direct: createNodeTransport(),
        proxied,
      });
      const response = await transport.request(request());
      expect(response.body).toContain('"via":"proxy"');
      expect(proxied.calls.map((c) => c.url)).toEqual([url]);
      expect(seen).toHaveLength(0);
    },
  );

  it('uses the system-proxy transport when the proxy cannot be resolved', async () => {
    const proxied = recording();
    const transport = createProxyRoutingTransport({
      resolveProxy: async () => {
        throw new Error('PAC script failed');
      },
      direct: createNodeTransport(),
      proxied,
    });
    await transport.request(request());
    expect(proxied.calls).toHaveLength(1);
  });
});

describe('createProxyRoutingTransport: connections opened ahead (warm)', () => {
  const warming = (pac: string | Error) => {
    const warmed: [string, number][] = [];
    const direct: Transport = {
      request: () => Promise.reject(new Error('not asked')),
      warm: (origin, count) => warmed.push([origin, count]),
    };
    const transport = createProxyRoutingTransport({
      resolveProxy: async () => {
        if (pac instanceof Error) throw pac;
        return pac;
      },
      direct,
      proxied: recording(),
    });
    transport.warm?.('https://files.example', 4);
    // The route is asked for asynchronously.
    return new Promise<[string, number][]>((resolve) => setTimeout(() => resolve(warmed), 20));
  };

  it('go through the direct transport where the system says DIRECT', async () => {
    expect(await warming('DIRECT')).toEqual([['https://files.example', 4]]);
  });

  it('are not opened where the system names a proxy, or cannot say', async () => {
    expect(await warming('PROXY proxy.corp:3128; DIRECT')).toEqual([]);
    expect(await warming(new Error('no answer'))).toEqual([]);
  });
});
