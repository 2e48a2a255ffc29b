import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { readBeforeWriteErrors } from './node-transport';

// Real sockets on 127.0.0.1 and a peer on its own thread (its own event loop, so its answer
// and reset can land while this side is in the middle of a write): it sends `words` (at
// once, or on the first data), then resets the connection while this side is still writing.
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const WORDS = 'HTTP/1.1 401 Unauthorized';

async function resettingPeer(words: string, sendFirst = false): Promise<number> {
  const worker = new Worker(
    `
const net = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const server = net.createServer((s) => {
  s.on('error', () => {});
  if (workerData.sendFirst) {
    s.write(workerData.words, () => s.once('data', () => s.resetAndDestroy()));
  } else {
    s.once('data', () => s.write(workerData.words, () => s.resetAndDestroy()));
  }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`,
    { eval: true, workerData: { words, sendFirst } },
  );
  closers.push(() => worker.terminate());
  return new Promise<number>((r) => worker.once('message', r));
}

interface Seen {
  received: string;
  error: NodeJS.ErrnoException | undefined;
  /** What `received` held when the error came out. */
  receivedAtError: string | undefined;
}

/** Writes 64 KiB pieces until the socket closes; records what came in and the error. */
function writeUntilClosed(socket: net.Socket): Promise<Seen> {
  const seen: Seen = { received: '', error: undefined, receivedAtError: undefined };
  socket.on('data', (chunk: Buffer) => {
    seen.received += chunk.toString();
  });
  socket.on('error', (error) => {
    seen.error = error;
    seen.receivedAtError = seen.received;
  });
  const piece = Buffer.alloc(64 * 1024, 1);
  const more = () => {
    while (!socket.destroyed && socket.write(piece));
  };
  socket.on('drain', more);
  socket.once('connect', more);
  return new Promise((resolve) => socket.once('close', () => resolve(seen)));
}

describe('a connection the service resets during the body: its answer is read before the reset', () => {
  it('lets the socket read what the peer sent before its reset, then reports the failure', async () => {
    const port = await resettingPeer(WORDS);
    for (let i = 0; i < 50; i++) {
      const socket = new net.Socket();
      readBeforeWriteErrors(socket);
      const closed = writeUntilClosed(socket);
      socket.connect(port, '127.0.0.1');
      const seen = await closed;
      expect(seen.received).toBe(WORDS);
      // A reset, from reading or from the held write, and only after the words were read.
      expect(['ECONNRESET', 'EPIPE', undefined]).toContain(seen.error?.code);
      if (seen.error) expect(seen.receivedAtError).toBe(WORDS);
    }
  });

  it('never hangs: a socket that has stopped reading is ended by the held write error after the grace', async () => {
    // More than the socket's read buffer, sent before the reset, with nobody consuming it:
    // the socket stops reading, so it sees neither the end of its input nor the reset.
    const port = await resettingPeer('x'.repeat(256 * 1024), true);
    const socket = new net.Socket();
    readBeforeWriteErrors(socket, 50);
    const closed = new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      let error: NodeJS.ErrnoException | undefined;
      socket.on('error', (e) => {
        error = e;
      });
      socket.once('close', () => resolve(error));
    });
    const piece = Buffer.alloc(64 * 1024, 1);
    const more = () => {
      while (!socket.destroyed && socket.write(piece));
    };
    socket.on('drain', more);
    socket.once('connect', more);
    socket.connect(port, '127.0.0.1');
    const error = await closed;
    expect(socket.readableLength).toBeGreaterThan(0);
    expect(['ECONNRESET', 'EPIPE']).toContain(error?.code);
    expect(error?.syscall).toBe('write');
  });
});
