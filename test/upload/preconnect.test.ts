// Connections opened ahead (main/core/upload/preconnect.ts), as `trayshare send --base-url`
// opens them while the rest of the CLI loads: the requests that follow take them instead of
// opening their own (the TLS reference service counts the handshakes), and a request that takes
// one whose TLS handshake has not finished sends nothing before it has.

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { preconnect } from '../../main/core/upload/preconnect';
import { TransportError } from '../../main/core/upload/transport';
import { TOKEN } from '../external/helpers';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { testTls } from '../reference-service/tls';

// Node 22.19+ (https://nodejs.org/api/tls.html#tlssetdefaultcacertificatescerts), as in
// tls-reuse.test.ts: the process trusts the test certificate as it trusts Slack's.
const { getCACertificates, setDefaultCACertificates } = tls as unknown as {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certs: string[]): void;
};
const defaultCAs = getCACertificates('default');

let dir: string;
let service: ReferenceService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-preconnect-'));
  service = await startReferenceService({ dataDir: join(dir, 'service'), tls: testTls() });
  setDefaultCACertificates([...defaultCAs, testTls().cert.toString()]);
});

afterAll(async () => {
  setDefaultCACertificates(defaultCAs);
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const ask = (transport: ReturnType<typeof createNodeTransport>, base: string) =>
  transport.request({
    url: `${base}/api/auth.test`,
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    connectTimeoutMs: 10_000,
    idleTimeoutMs: 10_000,
  });

it('three requests right after three warm connections: three TLS handshakes in all, not six', async () => {
  service.resetTraffic();
  preconnect(service.url, 3);
  // Taken while their handshakes are still under way (the same turn of the event loop).
  const transport = createNodeTransport();
  const answers = await Promise.all([1, 2, 3].map(() => ask(transport, service.url)));
  expect(answers.map((a) => [a.status, JSON.parse(a.body).ok])).toEqual(Array(3).fill([200, true]));
  expect(service.traffic()).toMatchObject({ connections: 3, handshakes: 3, requests: 3 });
});

it('a warm connection whose TLS handshake never ends: the request times out and its body is never read', async () => {
  // Takes the TCP connection, reads the client's hello and never answers it.
  const held: Socket[] = [];
  let accepted: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    accepted = resolve;
  });
  const silent: Server = createServer((socket) => {
    held.push(socket);
    socket.on('error', () => {});
    // The hello has come: the client's side of the connection is up.
    socket.once('data', () => accepted());
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  try {
    const base = `https://127.0.0.1:${port}`;
    preconnect(base, 1);
    // The TCP connection is up (the hello came over it); the TLS handshake is not.
    await connected;
    let read = false;
    const body = (async function* () {
      read = true;
      yield Buffer.from('filename=a.png&length=1');
    })();
    const sent = createNodeTransport().request({
      url: `${base}/api/files.getUploadURLExternal`,
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
      contentLength: 23,
      connectTimeoutMs: 300,
      idleTimeoutMs: 10_000,
    });
    const error = await sent.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('connect_timeout');
    expect(read).toBe(false);
    expect(held).toHaveLength(1);
  } finally {
    for (const s of held) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});
