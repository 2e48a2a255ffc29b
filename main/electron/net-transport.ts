// The app's transport: Electron's `net` (Chromium's network stack), so uploads go through the
// system proxy (PAC, WPAD, authenticating proxies) like the person's browser does.
//
// Choices forced by Chromium:
// - Bodies go with chunked encoding. Chromium refuses a Content-Length set by hand
//   (net::ERR_INVALID_ARGUMENT), and a non-chunked body is collected whole in memory before
//   the connection even opens: a 1 GiB file in RAM, and every byte "handed over" before we
//   know the service is reachable, which would turn a refused connection into an unknown
//   outcome. Chunked, the first chunk waits until Chromium reads the body (the connection is
//   up) and each next chunk is pulled only when the previous one was taken: real backpressure.
//   Over HTTP/2 there is no chunking at all, only data frames.
// - `redirect: 'manual'`: a 3xx arrives as a 'redirect' event; we answer it as a response
//   (status + Location) for the engine to classify and never follow it, so the token cannot
//   reach another origin.
// - No cookies from the session, no cache, no referrer.
import type { ClientRequestConstructorOptions } from 'electron';
import {
  abortedError,
  cappedBody,
  createBodyWriter,
  createDeadline,
  pumpBody,
  type Transport,
  TransportError,
  type TransportErrorCode,
  type TransportRequest,
  type TransportResponse,
} from '../core/upload/transport';
import { userAgent } from '../core/version';

/** The parts of Electron's IncomingMessage this transport reads. */
export interface NetResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'end', listener: () => void): this;
  on(event: 'aborted', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}

/** The parts of Electron's ClientRequest this transport uses. */
export interface NetRequest {
  chunkedEncoding: boolean;
  setHeader(name: string, value: string): void;
  write(chunk: Buffer, encoding?: string, callback?: () => void): void;
  end(chunk?: Buffer, encoding?: string, callback?: () => void): unknown;
  abort(): void;
  on(event: 'response', listener: (response: NetResponse) => void): this;
  on(
    event: 'redirect',
    listener: (
      statusCode: number,
      method: string,
      redirectUrl: string,
      responseHeaders: Record<string, string[]>,
    ) => void,
  ): this;
  on(event: 'error', listener: (error: Error) => void): this;
}

/** Electron's `net` module, as far as this transport needs it. */
export interface NetModule {
  request(options: ClientRequestConstructorOptions): NetRequest;
}

export interface NetTransportOptions {
  /** Timer functions (tests pass fake ones). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

// Headers Chromium computes itself and refuses from callers.
const FORBIDDEN_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'expect',
  'upgrade',
  'te',
  'trailer',
]);

/** Maps Chromium's net error names (`net::ERR_CONNECTION_REFUSED`) to the transport's codes. */
function mapNetError(error: Error, host: string): TransportError {
  const name = /net::(ERR_[A-Z_0-9]+)/.exec(error.message)?.[1] ?? '';
  let code: TransportErrorCode;
  let message: string;
  if (name === 'ERR_CONNECTION_REFUSED') {
    code = 'connection_refused';
    message = `${host} refused the connection: the service is not running there or the port is wrong.`;
  } else if (
    [
      'ERR_CONNECTION_RESET',
      'ERR_CONNECTION_CLOSED',
      'ERR_CONNECTION_ABORTED',
      'ERR_EMPTY_RESPONSE',
      'ERR_SOCKET_NOT_CONNECTED',
    ].includes(name)
  ) {
    code = 'connection_reset';
    message = `The connection to ${host} was closed unexpectedly.`;
  } else if (name === 'ERR_NAME_NOT_RESOLVED' || name === 'ERR_NAME_RESOLUTION_FAILED') {
    code = 'dns_failure';
    message = `${host} could not be found: check the address and the network connection.`;
  } else if (name === 'ERR_CONNECTION_TIMED_OUT') {
    code = 'connect_timeout';
    message = `No connection to ${host}: the attempt timed out.`;
  } else if (name === 'ERR_TIMED_OUT') {
    code = 'idle_timeout';
    message = `${host} stopped answering: the request timed out.`;
  } else if (/^ERR_(CERT_|SSL_|BAD_SSL_)/.test(name)) {
    code = 'tls_error';
    message = `The secure connection to ${host} failed (${name}): its certificate is not trusted here.`;
  } else if (name === 'ERR_ABORTED') {
    code = 'aborted';
    message = 'The request was cancelled.';
  } else if (/^ERR_(PROXY_|TUNNEL_)/.test(name)) {
    code = 'network_error';
    message = `The proxy between this computer and ${host} failed (${name}).`;
  } else {
    code = 'network_error';
    message = `Network error talking to ${host} (${name || error.message}).`;
  }
  return new TransportError(code, message, { cause: error });
}

function flatHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function createNetTransport(net: NetModule, options: NetTransportOptions = {}): Transport {
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  return { request: (req) => send(net, req, setTimer, clearTimer) };
}

function send(
  net: NetModule,
  req: TransportRequest,
  setTimer: (fn: () => void, ms: number) => unknown,
  clearTimer: (handle: unknown) => void,
): Promise<TransportResponse> {
  if (req.signal?.aborted) return Promise.reject(abortedError());
  const host = new URL(req.url).host;
  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    let answered = false;
    let bodyDone = !req.body;
    let stopPump: () => void = () => undefined;
    const pumpStopped = new Promise<'stopped'>((r) => {
      stopPump = () => r('stopped');
    });

    const request = net.request(requestOptions(req));
    const finish = (outcome: { ok: TransportResponse } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      deadline.stop();
      req.signal?.removeEventListener('abort', onAbort);
      stopPump();
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.error);
      // After an early answer the rest of the body is not wanted; after an error nothing is.
      if (!answered || !bodyDone || 'error' in outcome) request.abort();
    };
    const fail = (error: unknown) => finish({ error });
    const timers = { setTimer, clearTimer };
    const deadline = createDeadline({
      host,
      idleTimeoutMs: req.idleTimeoutMs,
      onTimeout: fail,
      ...timers,
    });
    const touch = deadline.touch;
    const onAbort = () => fail(abortedError());
    req.signal?.addEventListener('abort', onAbort, { once: true });

    try {
      setHeaders(request, req);
    } catch (error) {
      fail(error);
      return;
    }

    request.on('redirect', (statusCode, _method, redirectUrl, responseHeaders) => {
      finish({ ok: redirectAnswer(statusCode, redirectUrl, responseHeaders) });
    });
    request.on('error', (error) => {
      if (!answered) fail(mapNetError(error, host));
    });
    request.on('response', (response) => {
      answered = true;
      stopPump();
      touch();
      readAnswer(response, touch, (ok) => finish({ ok }));
    });

    // With a body, the connect phase ends when Chromium takes the first chunk; without one
    // nothing marks the connection, so the whole wait for the answer is one idle period.
    if (req.body) deadline.arm('connect_timeout', req.connectTimeoutMs);
    else deadline.arm('idle_timeout', req.connectTimeoutMs + req.idleTimeoutMs);

    void pump(
      req,
      request,
      pumpStopped,
      () => settled || answered,
      touch,
      fail,
      () => {
        bodyDone = true;
      },
    );
  });
}

/** Redirects are the caller's to follow; no cookies, cache or referrer go with an upload. */
function requestOptions(req: TransportRequest): ClientRequestConstructorOptions {
  return {
    method: req.method,
    url: req.url,
    redirect: 'manual',
    useSessionCookies: false,
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  };
}

function setHeaders(request: NetRequest, req: TransportRequest): void {
  // Chromium's own User-Agent names Electron and Chrome; a service's logs should name the app.
  request.setHeader('user-agent', userAgent('app'));
  for (const [name, value] of Object.entries(req.headers)) {
    if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) request.setHeader(name, value);
  }
  // Answers are read as text: ask for them plain. Chromium may still decode (or receive) an
  // encoded answer; cappedBody undoes an encoding that is left.
  request.setHeader('accept-encoding', 'identity');
  if (req.body) request.chunkedEncoding = true;
}

/** A redirect is an answer of its own: the caller decides whether to follow it. */
function redirectAnswer(
  status: number,
  redirectUrl: string,
  responseHeaders: Record<string, string[]>,
): TransportResponse {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(responseHeaders)) {
    headers[name.toLowerCase()] = values.join(', ');
  }
  headers.location ??= redirectUrl;
  return { status, headers, body: '' };
}

/** The answer, once it has ended (or broken off: what arrived is still the answer). */
function readAnswer(
  response: NetResponse,
  touch: () => void,
  done: (answer: TransportResponse) => void,
): void {
  const body = cappedBody();
  response.on('data', (chunk) => {
    touch();
    body.add(chunk);
  });
  const answer = () => {
    const headers = flatHeaders(response.headers);
    done({ status: response.statusCode, headers, body: body.text(headers['content-encoding']) });
  };
  response.on('end', answer);
  // The answer's body broke off: what arrived is still the answer (it will not parse).
  response.on('error', answer);
  response.on('aborted', answer);
}

async function pump(
  req: TransportRequest,
  request: NetRequest,
  stopped: Promise<'stopped'>,
  isStopped: () => boolean,
  touch: () => void,
  fail: (error: unknown) => void,
  bodySent: () => void,
): Promise<void> {
  if (!req.body) {
    request.end();
    return;
  }
  try {
    const writer = createBodyWriter(req);
    const outcome = await pumpBody(req.body, isStopped, async (value) => {
      // The callbacks come when Chromium took each slice; after an abort they never come.
      let taken: Promise<'taken'> = Promise.resolve('taken');
      const slices = writer.slices(value);
      for (let i = 0; i < slices.length; i++) {
        const slice = slices[i]!;
        const whole = i === slices.length - 1 ? value : undefined;
        const chunk = Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength);
        taken = new Promise<'taken'>((r) =>
          request.write(chunk, undefined, () => {
            touch();
            writer.written(slice.length, whole);
            r('taken');
          }),
        );
      }
      if ((await Promise.race([taken, stopped])) === 'stopped') return false;
      return true;
    });
    if (outcome === 'ended') {
      bodySent();
      request.end(undefined, undefined, touch);
    }
  } catch (error) {
    // A body that failed (file changed, unreadable) is reported as itself.
    fail(error);
  }
}
