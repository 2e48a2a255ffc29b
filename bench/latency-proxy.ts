// A TCP proxy that adds a network's round trip to loopback: every chunk waits `oneWayMs` before
// it goes on, in each direction, and a new connection carries nothing for one round trip (the
// TCP handshake a real link would cost). Bandwidth is not limited: what it shows is what
// latency costs a client (sequential requests, new connections), as a person on a 50 ms link
// to Slack would see it.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Where connections go (set before the first client connects). */
  forwardTo(port: number): void;
  /** Connections accepted since the start. */
  connections(): number;
  close(): Promise<void>;
}

/** Forwards `from` to `to`, each chunk `delayMs` later, in order, keeping backpressure. */
function delayedPipe(from: Socket, to: Socket, delayMs: number): void {
  let queued = 0;
  from.on('data', (chunk: Buffer) => {
    queued++;
    // A paused reader keeps the kernel's window honest when the far side is slow.
    if (queued > 64) from.pause();
    setTimeout(() => {
      queued--;
      if (!to.destroyed) to.write(chunk);
      if (queued <= 16 && from.isPaused()) from.resume();
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => setTimeout(() => to.destroy(), delayMs));
  from.on('close', () => setTimeout(() => to.destroy(), delayMs + 1));
}

export async function startLatencyProxy(opts: { oneWayMs: number }): Promise<LatencyProxy> {
  let target = 0;
  let accepted = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    accepted++;
    open.add(client);
    client.once('close', () => open.delete(client));
    client.pause();
    const upstream = connect(target, '127.0.0.1');
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    // SYN, SYN-ACK, ACK: the client's first byte leaves one round trip after it connected.
    setTimeout(() => {
      delayedPipe(client, upstream, opts.oneWayMs);
      delayedPipe(upstream, client, opts.oneWayMs);
      client.resume();
    }, 2 * opts.oneWayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    forwardTo: (p) => {
      target = p;
    },
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
