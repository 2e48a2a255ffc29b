// A server may answer before it has read the request body (401, 413, an error page) and then
// close with the rest of the body unread, which makes its kernel send a reset right behind the
// answer. The next body write then fails (EPIPE, ECONNRESET), and Node's socket destroys itself
// on that error at once, in the loop turn before the one that would have read the answer: the
// answer, already received, is thrown away and the request looks like a plain reset
// (nodejs/node#54366). Which comes first is a race between the two peers, so it cannot be fixed
// by reading more often; the write error itself has to wait.
//
// So a failed write is held back: nothing more is written (the write never completes, so the
// stream queues the rest), and the socket keeps reading. On Linux the data that arrived before
// the reset stays readable, then reading ends (EOF or ECONNRESET), the socket closes, and the
// HTTP client reports the answer, or the reset if there was none. Where the system drops that
// data (Windows), or should reading stall, the held error closes the socket after a short grace.

import type { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;

/** How long a held write error waits for the reading side to end on its own. */
const WRITE_ERROR_GRACE_MS = 2000;

/**
 * Makes `socket` report a write failure only once everything the peer sent before it has been
 * read. Call before the first write.
 */
export function readBeforeWriteErrors(socket: Socket, graceMs = WRITE_ERROR_GRACE_MS): void {
  let held = false;
  const hold =
    (callback: WriteCallback): WriteCallback =>
    (error) => {
      if (!error || held || socket.destroyed) {
        callback(error);
        return;
      }
      held = true;
      const release = () => socket.destroy(error);
      const timer = setTimeout(release, graceMs);
      // Input read to its end: the socket cannot close by itself now (its own end waits for
      // the held write), so it closes here, unless the HTTP client already did.
      if (socket.readableEnded) process.nextTick(release);
      else socket.once('end', release);
      // The write's own callback learns of the failure once the socket is gone; by then the
      // request has its answer or its error.
      socket.once('close', () => {
        clearTimeout(timer);
        socket.off('end', release);
        callback(error);
      });
    };
  const write = socket._write;
  socket._write = (chunk, encoding, callback) =>
    write.call(socket, chunk, encoding, hold(callback));
  const writev = socket._writev;
  if (writev) socket._writev = (chunks, callback) => writev.call(socket, chunks, hold(callback));
}
