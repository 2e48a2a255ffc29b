// The bytes step of the round-trip floor, measured the way a share sends its bytes: `streams`
// plain TCP connections through the same latency proxy the clients go through, already
// connected, each sending `bytesEach` at once to a sink that answers one byte when it has them
// all; timed from the first write to the last answer, the fastest of `tries`. That is one
// round trip plus what the path needs to carry the bytes; minus the round trip it is the
// transfer term of the floor.
//
// Why not one stream of the whole share (what this measured before): the proxy passes each
// connection's bytes with its own window (latency-proxy.ts: up to 64 chunks in flight), so one
// stream of 20 MB took several round trips' worth of windows at 150 ms (330 ms of the floor)
// where ten streams of 2 MB, as the clients send them, each fit about one window: the floor
// counted a transfer no client pays, and a client measured 0.97× a "floor". Plain TCP, no TLS:
// encryption is CPU the client spends, not the link, so leaving it out keeps this a lower bound.

import type { AddressInfo, Socket } from 'node:net';
import { connect, createServer } from 'node:net';
import { startLatencyProxy } from './latency-proxy';

export interface BytesStep {
  /** First write to last answer, ms, the fastest try: one round trip plus the transfer. */
  stepMs: number;
  /** stepMs less the round trip: what the floor adds for the bytes. */
  transferMs: number;
  /** All the streams' bytes over transferMs, MB/s. */
  aggregateMBps: number;
}

async function oneTry(proxyPort: number, streams: number, bytesEach: number): Promise<number> {
  const sockets: Socket[] = [];
  for (let i = 0; i < streams; i++) {
    const s = connect(proxyPort, '127.0.0.1');
    s.setNoDelay(true);
    s.on('error', () => {});
    sockets.push(s);
  }
  // Connected through the proxy: a one-byte ping each way, so its connect delay is behind us.
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.once('data', () => resolve());
          s.write(Buffer.from([0]));
        }),
    ),
  );
  const answers = sockets.map(
    (s) => new Promise<void>((resolve) => s.once('data', () => resolve())),
  );
  const block = Buffer.alloc(64 * 1024, 1);
  const started = performance.now();
  await Promise.all(
    sockets.map(async (s) => {
      for (let sent = 0; sent < bytesEach; sent += block.length) {
        const piece = block.subarray(0, Math.min(block.length, bytesEach - sent));
        if (!s.write(piece)) await new Promise((resolve) => s.once('drain', resolve));
      }
    }),
  );
  await Promise.all(answers);
  const ms = performance.now() - started;
  for (const s of sockets) s.destroy();
  return ms;
}

export async function measureBytesStep(
  oneWayMs: number,
  streams: number,
  bytesEach: number,
  tries = 3,
): Promise<BytesStep> {
  const proxy = await startLatencyProxy({ oneWayMs });
  // The sink: answers the ping at once, then one byte once the whole body has come.
  const sink = createServer((socket) => {
    let got = -1;
    socket.on('data', (chunk: Buffer) => {
      if (got < 0) {
        got = chunk.length - 1;
        socket.write(Buffer.from([1]));
      } else {
        got += chunk.length;
      }
      if (got >= bytesEach) {
        got = Number.NEGATIVE_INFINITY;
        socket.write(Buffer.from([2]));
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  proxy.forwardTo((sink.address() as AddressInfo).port);
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let i = 0; i < tries; i++)
      best = Math.min(best, await oneTry(proxy.port, streams, bytesEach));
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  }
  const transferMs = Math.max(0, best - 2 * oneWayMs);
  return {
    stepMs: best,
    transferMs,
    aggregateMBps: (streams * bytesEach) / 1e6 / (Math.max(transferMs, 0.1) / 1e3),
  };
}
