// Slows request bodies down to a set rate, so a browser test can watch a large upload move
// and cancel it half-way on a loopback link that would otherwise finish in a blink.
import type { Transport, TransportRequest } from '../../main/core/upload/transport';

const SLICE = 64 * 1024;

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function* throttled(
  body: AsyncIterable<Uint8Array>,
  rate: () => number | null,
  signal?: AbortSignal,
): AsyncIterable<Uint8Array> {
  for await (const chunk of body) {
    for (let offset = 0; offset < chunk.length; offset += SLICE) {
      const slice = chunk.subarray(offset, offset + SLICE);
      const bytesPerSecond = rate();
      if (bytesPerSecond && !signal?.aborted)
        await pause((slice.length * 1000) / bytesPerSecond, signal);
      yield slice;
    }
  }
}

/** `rate()` is read for every slice: null means full speed. */
export function throttleTransport(inner: Transport, rate: () => number | null): Transport {
  return {
    request(req: TransportRequest) {
      if (!req.body) return inner.request(req);
      return inner.request({ ...req, body: throttled(req.body, rate, req.signal) });
    },
  };
}
