// Progress counted as the socket takes bytes, and read buffers reused once the socket is done
// with them: the engine and the real Node transport against the reference service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadOnce } from '../../main/core/upload/engine';
import { uploadExternal } from '../../main/core/upload/external/send-file';
import type { Transport, TransportRequest } from '../../main/core/upload/transport';
import { throttleTransport } from '../harness/throttle';
import { type Harness, startHarness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

interface Watched {
  /** Each body chunk the transport was given, as given. */
  yielded: Uint8Array[];
  /** What the transport reported taken: bytes, and the chunk when whole. */
  written: [number, Uint8Array | undefined][];
}

/** Passes every request on unchanged, recording the body chunks and the transport's reports. */
function watching(inner: Transport): Transport & { watched: Watched[] } {
  const watched: Watched[] = [];
  return {
    watched,
    request(req: TransportRequest) {
      if (!req.body) return inner.request(req);
      const w: Watched = { yielded: [], written: [] };
      watched.push(w);
      const source = req.body;
      const body = (async function* () {
        for await (const chunk of source) {
          w.yielded.push(chunk);
          yield chunk;
        }
      })();
      return inner.request({
        ...req,
        body,
        onBodyWritten: (bytes, chunk) => {
          w.written.push([bytes, chunk]);
          req.onBodyWritten?.(bytes, chunk);
        },
      });
    },
  };
}

describe('socket-counted progress and reused read buffers', () => {
  it('the Node transport reports every body chunk as taken, in order, all bytes counted', async () => {
    const f = await h.file('counted.bin', 5 * 1024 * 1024 + 77);
    const t = watching(h.transport);
    const result = await uploadOnce(h.job(f.path, 'counted.bin'), { transport: t });
    expect(result.kind).toBe('delivered');
    const w = t.watched[0]!;
    const total = w.yielded.reduce((n, c) => n + c.length, 0);
    expect(w.written.reduce((n, [bytes]) => n + bytes, 0)).toBe(total);
    const whole = w.written.flatMap(([, c]) => (c ? [c] : []));
    // The very chunks given, by identity (their contents would be a slow deep compare).
    expect(whole.length).toBe(w.yielded.length);
    expect(whole.every((c, i) => c === w.yielded[i])).toBe(true);
  });

  it('a 32 MiB file is read into a few reused buffers, with either protocol', async () => {
    const f = await h.file('ring.bin', 32 * 1024 * 1024);
    const t = watching(h.transport);
    expect((await uploadOnce(h.job(f.path, 'ring.bin'), { transport: t })).kind).toBe('delivered');
    expect((await uploadExternal(h.job(f.path, 'ring.bin'), { transport: t })).kind).toBe(
      'delivered',
    );
    for (const w of t.watched.filter((x) => x.yielded.length > 30)) {
      const memory = new Set(w.yielded.filter((c) => c.length >= 1024 * 1024).map((c) => c.buffer));
      expect(memory.size).toBeLessThanOrEqual(3);
    }
    expect(t.watched.filter((x) => x.yielded.length > 30)).toHaveLength(2);
  });

  it('a 700 KB file at 1 MB/s shows progress several times on its way, not one jump', async () => {
    const size = 700 * 1000;
    const f = await h.file('slow.bin', size);
    const events: number[] = [];
    const result = await uploadOnce(h.job(f.path, 'slow.bin'), {
      transport: throttleTransport(h.transport, () => 1e6),
      onProgress: (sent) => events.push(sent),
    });
    expect(result.kind).toBe('delivered');
    expect(events.at(-1)).toBe(size);
    // About 0.7 s of sending, reported about 10 times a second.
    expect(events.filter((s) => s < size).length).toBeGreaterThanOrEqual(3);
    expect(events).toEqual([...events].sort((a, b) => a - b));
  });
});
