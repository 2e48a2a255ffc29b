// Feeds a request body to a transport's writer, shared by every transport because its one rule
// is subtle: `stopped()` is checked before every pull, not just after, since pulling the last
// chunk tells the engine the whole body went out, which must not happen once the request is
// over (answered early, failed, aborted).

export type PumpOutcome = 'ended' | 'stopped';

/**
 * Pulls `body` chunk by chunk into `write` (which resolves false to stop) until the body ends
 * or `stopped()` is true. A body that throws (a file changed or unreadable) rejects with its
 * own error. A body left part-way is closed, which closes its file.
 */
export async function pumpBody(
  body: AsyncIterable<Uint8Array>,
  stopped: () => boolean,
  write: (chunk: Uint8Array) => Promise<boolean>,
): Promise<PumpOutcome> {
  const chunks = body[Symbol.asyncIterator]();
  let finished = false;
  try {
    while (!stopped()) {
      const next = await chunks.next();
      if (next.done) {
        finished = true;
        return stopped() ? 'stopped' : 'ended';
      }
      if (stopped() || !(await write(next.value))) break;
    }
    return 'stopped';
  } catch (error) {
    finished = true;
    throw error;
  } finally {
    // A failure to close changes nothing about the outcome, which is already decided.
    if (!finished) await chunks.return?.().catch(() => undefined);
  }
}
