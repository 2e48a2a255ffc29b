import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import type { ClientRequestConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransportError, type TransportRequest } from '../core/upload/transport';
import { createNetTransport, type NetRequest, type NetResponse } from './net-transport';

// A stand-in for Electron's ClientRequest: it records what the transport does and lets the
// test play Chromium (take a chunk, answer, redirect, fail).
class FakeRequest extends EventEmitter {
  chunkedEncoding = false;
  headers: Record<string, string> = {};
  written: Buffer[] = [];
  pendingTakes: (() => void)[] = [];
  ended = false;
  aborted = false;
  constructor(readonly options: ClientRequestConstructorOptions) {
    super();
  }
  setHeader(name: string, value: string) {
    if (name.toLowerCase() === 'content-length') throw new Error('net::ERR_INVALID_ARGUMENT');
    this.headers[name.toLowerCase()] = value;
  }
  write(chunk: Buffer, _encoding?: string, callback?: () => void) {
    this.written.push(Buffer.from(chunk));
    this.pendingTakes.push(() => callback?.());
  }
  end(_chunk?: Buffer, _encoding?: string, callback?: () => void) {
    this.ended = true;
    callback?.();
    return this;
  }
  abort() {
    this.aborted = true;
  }
  /** Chromium took the oldest pending chunk. */
  take() {
    this.pendingTakes.shift()?.();
  }
  respond(status: number, headers: Record<string, string | string[]>, body: string) {
    const response = new FakeResponse(status, headers);
    this.emit('response', response);
    if (body) response.emit('data', Buffer.from(body));
    response.emit('end');
  }
}

class FakeResponse extends EventEmitter {
  constructor(
    readonly statusCode: number,
    readonly headers: Record<string, string | string[]>,
  ) {
    super();
  }
}

function fakeNet() {
  const requests: FakeRequest[] = [];
  return {
    requests,
    net: {
      request(options: ClientRequestConstructorOptions): NetRequest {
        const r = new FakeRequest(options);
        requests.push(r);
        return r as unknown as NetRequest;
      },
    },
  };
}

/** A body of `count` chunks that records how many were pulled and whether it was closed. */
function trackedBody(count: number, size = 4) {
  const state = { pulled: 0, closed: false, lastPulled: false };
  async function* gen() {
    try {
      for (let i = 0; i < count; i++) {
        state.pulled++;
        if (i === count - 1) state.lastPulled = true;
        yield new Uint8Array(size).fill(65 + i);
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, body: gen() };
}

const flush = () => new Promise((r) => setImmediate(r));

function upload(extra: Partial<TransportRequest> = {}): TransportRequest {
  return {
    url: 'http://127.0.0.1:9/api/files.upload',
    method: 'POST',
    headers: {
      authorization: 'Bearer xoxb-test-token',
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '12',
    },
    contentLength: 12,
    connectTimeoutMs: 15_000,
    idleTimeoutMs: 60_000,
    ...extra,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('net transport', () => {
  it('streams the body chunk by chunk: the next chunk is pulled only once Chromium took the last', async () => {
    const { net, requests } = fakeNet();
    const { state, body } = trackedBody(3);
    const pending = createNetTransport(net).request(upload({ body }));
    await flush();
    const req = requests[0]!;
    expect(req.options).toMatchObject({
      method: 'POST',
      redirect: 'manual',
      useSessionCookies: false,
    });
    expect(req.chunkedEncoding).toBe(true);
    expect(req.headers.authorization).toBe('Bearer xoxb-test-token');
    // Chromium computes Content-Length itself and refuses it from callers.
    expect(req.headers['content-length']).toBeUndefined();

    // Not connected yet: one chunk is waiting in Electron, nothing more is read from disk.
    await flush();
    expect(state.pulled).toBe(1);
    req.take();
    await flush();
    expect(state.pulled).toBe(2);
    await flush();
    expect(state.pulled).toBe(2);
    req.take();
    await flush();
    req.take();
    await flush();
    expect(state.pulled).toBe(3);
    expect(req.ended).toBe(true);
    expect(Buffer.concat(req.written).toString()).toBe('AAAABBBBCCCC');

    req.respond(
      200,
      { 'Content-Type': 'application/json', 'X-Slack-Failure': ['a', 'b'] },
      '{"ok":true}',
    );
    const res = await pending;
    expect(res).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-slack-failure': 'a, b' },
      body: '{"ok":true}',
    });
    expect(req.aborted).toBe(false);
  });

  it("says it is Trayshare, with package.json's version, in the User-Agent (not Chromium's)", async () => {
    const { net, requests } = fakeNet();
    const pending = createNetTransport(net).request(upload());
    await flush();
    const { version } = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(requests[0]?.headers['user-agent']).toBe(
      `Trayshare/${version} (${process.platform}; Node ${process.versions.node})`,
    );
    requests[0]?.respond(200, {}, '{"ok":true}');
    expect((await pending).status).toBe(200);
  });

  it('answers a redirect as a response and never follows it', async () => {
    const { net, requests } = fakeNet();
    const { state, body } = trackedBody(3);
    const pending = createNetTransport(net).request(upload({ body }));
    await flush();
    const req = requests[0]!;
    req.emit('redirect', 307, 'POST', 'https://elsewhere.example/api/files.upload', {
      Location: ['https://elsewhere.example/api/files.upload'],
    });
    const res = await pending;
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('https://elsewhere.example/api/files.upload');
    expect(res.body).toBe('');
    expect(req.aborted).toBe(true);
    await flush();
    expect(state.lastPulled).toBe(false);
    expect(state.closed).toBe(true);
  });

  it('stops on abort: rejects as aborted, cancels the request and closes the body', async () => {
    const { net, requests } = fakeNet();
    const { state, body } = trackedBody(5);
    const controller = new AbortController();
    const pending = createNetTransport(net).request(upload({ body, signal: controller.signal }));
    await flush();
    const req = requests[0]!;
    req.take();
    await flush();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'TransportError', code: 'aborted' });
    expect(req.aborted).toBe(true);
    await flush();
    expect(state.closed).toBe(true);
    expect(state.lastPulled).toBe(false);
  });

  it('refuses to start when already aborted', async () => {
    const { net, requests } = fakeNet();
    const controller = new AbortController();
    controller.abort();
    await expect(
      createNetTransport(net).request(upload({ signal: controller.signal })),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(requests).toHaveLength(0);
  });

  it('maps a refused connection, and the last chunk is never pulled', async () => {
    const { net, requests } = fakeNet();
    const { state, body } = trackedBody(2);
    const pending = createNetTransport(net).request(upload({ body }));
    await flush();
    requests[0]!.emit('error', new Error('net::ERR_CONNECTION_REFUSED'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('connection_refused');
    expect((error as TransportError).message).toContain('127.0.0.1:9');
    await flush();
    expect(state.lastPulled).toBe(false);
  });

  it.each([
    ['net::ERR_CONNECTION_RESET', 'connection_reset'],
    ['net::ERR_EMPTY_RESPONSE', 'connection_reset'],
    ['net::ERR_NAME_NOT_RESOLVED', 'dns_failure'],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'tls_error'],
    ['net::ERR_PROXY_CONNECTION_FAILED', 'network_error'],
  ])('maps %s to %s', async (message, code) => {
    const { net, requests } = fakeNet();
    const pending = createNetTransport(net).request(upload({ method: 'GET' }));
    await flush();
    requests[0]!.emit('error', new Error(message));
    await expect(pending).rejects.toMatchObject({ code });
  });

  it('reports a connect timeout when Chromium never takes the first chunk', async () => {
    vi.useFakeTimers();
    const { net } = fakeNet();
    const { body } = trackedBody(2);
    const pending = createNetTransport(net).request(upload({ body, connectTimeoutMs: 1000 }));
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await outcome).toMatchObject({ code: 'connect_timeout' });
  });

  it('reports an idle timeout when the upload stalls after connecting', async () => {
    vi.useFakeTimers();
    const { net, requests } = fakeNet();
    const { body } = trackedBody(3);
    const pending = createNetTransport(net).request(
      upload({ body, connectTimeoutMs: 1000, idleTimeoutMs: 5000 }),
    );
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    requests[0]!.take();
    // Past the connect timeout but within the idle timeout: still going.
    await vi.advanceTimersByTimeAsync(4000);
    expect(requests[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1100);
    expect(await outcome).toMatchObject({ code: 'idle_timeout' });
    expect(requests[0]!.aborted).toBe(true);
  });

  it('keeps an answer that arrives while the body is still going, and stops sending', async () => {
    const { net, requests } = fakeNet();
    const { state, body } = trackedBody(4);
    const pending = createNetTransport(net).request(upload({ body }));
    await flush();
    const req = requests[0]!;
    req.take();
    await flush();
    req.respond(413, {}, '{"ok":false,"error":"file_upload_size_restricted"}');
    req.emit('error', new Error('net::ERR_CONNECTION_RESET'));
    await expect(pending).resolves.toMatchObject({ status: 413 });
    // The rest of the body is not wanted: the request is cancelled.
    expect(req.aborted).toBe(true);
    req.take();
    await flush();
    expect(state.lastPulled).toBe(false);
    expect(state.closed).toBe(true);
  });

  it('cuts an oversized answer', async () => {
    const { net, requests } = fakeNet();
    const pending = createNetTransport(net).request(upload({ method: 'GET' }));
    await flush();
    const req = requests[0]!;
    const response = new EventEmitter() as EventEmitter & NetResponse;
    Object.assign(response, { statusCode: 502, headers: {} });
    req.emit('response', response);
    response.emit('data', Buffer.alloc(1024 * 1024, 60));
    response.emit('data', Buffer.alloc(10, 60));
    response.emit('end');
    expect((await pending).body.length).toBe(1024 * 1024);
  });

  it('reports a failing body as itself', async () => {
    const { net, requests } = fakeNet();
    const broken = (async function* () {
      yield new Uint8Array([1]);
      throw Object.assign(new Error('file changed'), { code: 'file_changed' });
    })();
    const pending = createNetTransport(net).request(upload({ body: broken }));
    await flush();
    requests[0]!.take();
    await expect(pending).rejects.toMatchObject({ message: 'file changed' });
    expect(requests[0]!.aborted).toBe(true);
  });
});
