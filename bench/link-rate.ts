// The link's rate for the round-trip floor: one plain TCP stream of `bytes` through the same
// latency proxy the clients go through, timed at the receiving end from its first byte to its
// last (the proxy's delay moves both alike, so what is left is the rate it passes bytes at).

import type { AddressInfo } from 'node:net';
import { connect, createServer } from 'node:net';
import { startLatencyProxy } from './latency-proxy';

export async function linkRateMBps(oneWayMs: number, bytes: number): Promise<number> {
  const proxy = await startLatencyProxy({ oneWayMs });
  let got = 0;
  let first = 0;
  let done: (ms: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });
  const sink = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      if (got === 0) first = performance.now();
      got += chunk.length;
      if (got >= bytes) done(performance.now() - first);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  proxy.forwardTo((sink.address() as AddressInfo).port);
  const client = connect(proxy.port, '127.0.0.1');
  client.on('error', () => {});
  const block = Buffer.alloc(64 * 1024, 1);
  for (let sent = 0; sent < bytes; sent += block.length) {
    if (!client.write(block)) await new Promise((resolve) => client.once('drain', resolve));
  }
  const ms = await finished;
  client.destroy();
  await proxy.close();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  return bytes / 1e6 / (Math.max(ms, 0.1) / 1e3);
}
