// The transport over Node's http/https, used by the CLI and the tests (the Electron build
// passes one over Electron's `net` for the system proxy).
//
// Choices:
// - Connections are kept between requests to the same origin (ConnectionPool below): a share of
//   many small files, or the external protocol's several requests per file, would otherwise
//   pay a connection set-up per request. A request that did not end cleanly (an error, an
//   answer that came before the whole body, a cancel) closes its connection rather than return
//   it half-used.
// - The body is pulled only once the connection (and TLS) is up: a refused connection must
//   never look like "the whole body was handed over".
// - No total timeout: a connect timeout, then an idle timeout reset by every byte either way.
// - An answer that arrives while we are still sending (413, an error page) wins over the write
//   error that follows when the server closes: it says what happened. Two things make sure it
//   is read at all: `Connection: keep-alive` is sent (with `Connection: close` a server that
//   answers early closes at once, and the reset that follows can beat its answer to us, while
//   with keep-alive Node, nginx and the reference service read and drop the rest first; we
//   still close the connection ourselves afterwards), and a failed write waits until the
//   socket has read what came before the reset (readBeforeWriteErrors below).

import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { errorMessage } from '../../portable/error-message';
import { userAgent } from '../version';
import { proxyAgentFor } from './env-proxy';
import { preconnect, stillHandshaking, takesWarmConnections } from './preconnect';
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
} from './transport';

// ---- Node's http and https modules, taken with `require` rather than `import`. Node 22 builds an
// ES module's view of node:http by reading every export, and three of them (WebSocket,
// CloseEvent, MessageEvent) are getters that load undici: about 40 ms of CPU, 10 MB of memory
// and 1.3 MB of heap at every start of the CLI and of the app's main process, for nothing they
// use. `require` returns the module as it is (bench/notes.md).
// Each is loaded on its first request: node:https brings tls and its secure context (~6 ms at
// the CLI's start), which a send to a loopback http:// service, or `--version`, never uses.
const require = createRequire(import.meta.url);

type HttpModule = Pick<typeof import('node:http'), 'request' | 'Agent'>;

let http: typeof import('node:http') | undefined;
let https: HttpModule | undefined;

/** node:http, loaded when first asked for: a request, or the sign-in's loopback listener. */
export function nodeHttp(): typeof import('node:http') {
  http ??= require('node:http') as typeof import('node:http');
  return http;
}

/** The module that requests `protocol` ('http:' or 'https:'), loaded when first asked for. */
function httpModuleFor(protocol: string): HttpModule {
  if (protocol === 'https:') {
    https ??= require('node:https') as typeof import('node:https');
    return https;
  }
  return nodeHttp();
}

// ---- A write error that waits for the answer (readBeforeWriteErrors).
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

// ---- The request.
const TLS_CODES =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

export function mapNodeError(error: unknown, host: string): TransportError {
  if (error instanceof TransportError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const detail = code || errorMessage(error);
  let kind: TransportErrorCode;
  let message: string;
  switch (code) {
    case 'ECONNREFUSED':
      kind = 'connection_refused';
      message = `${host} refused the connection: the service is not running there or the port is wrong.`;
      break;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      kind = 'connection_reset';
      message = `The connection to ${host} was closed unexpectedly.`;
      break;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      kind = 'dns_failure';
      message = `${host} could not be found: check the address and the network connection.`;
      break;
    default:
      if (TLS_CODES.test(code)) {
        kind = 'tls_error';
        message = `The secure connection to ${host} failed (${code}): its certificate is not trusted here.`;
      } else {
        kind = 'network_error';
        message = `Network error talking to ${host} (${detail}).`;
      }
  }
  return new TransportError(kind, message, { cause: error });
}

function lowerCaseHeaders(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

// Connections kept open between requests to the same service: one keep-alive agent per origin
// (scheme, host and port), so a share of many small files pays for one TCP (and TLS) set-up
// instead of one per file. Requests through a proxy keep the proxy's own agent (env-proxy.ts):
// pooling never routes around the proxy set-up.
//
// A pooled connection that the server closes while it sits idle would fail on our next write,
// and a reset after the body went reads as "may have been delivered". So an idle connection is
// dropped before the server drops it: after IDLE_MS, or one second before the server's own
// `Keep-Alive: timeout=N` hint when that is shorter (Node's Agent reads the hint,
// lib/_http_agent.js keepSocketAlive). A kept connection that breaks anyway is a dropped
// connection like any other: the file goes again only if it cannot have arrived.

/** Node's own http.Server closes idle connections after 5 s; nginx's default is 75 s. */
const IDLE_MS = 4000;

/** One keep-alive agent per origin, for one transport's direct requests. */
function connectionPool(): (url: URL) => Agent {
  const agents = new Map<string, Agent>();
  return (url) => {
    let agent = agents.get(url.origin);
    if (!agent) {
      // lifo: the connection used last is the one least likely to have been closed meanwhile.
      agent = new (httpModuleFor(url.protocol).Agent)({
        keepAlive: true,
        timeout: IDLE_MS,
        scheduling: 'lifo',
      });
      // Connections opened ahead of the requests (preconnect.ts) go first.
      takesWarmConnections(agent, url.origin);
      agents.set(url.origin, agent);
    }
    return agent;
  };
}

/** `client` names who is calling in the User-Agent: the CLI, or the app (its direct requests). */
export function createNodeTransport(opts: { client?: 'app' | 'cli' } = {}): Transport {
  const agentName = userAgent(opts.client ?? 'cli');
  const pooled = connectionPool();
  return {
    request: async (req) => {
      const url = new URL(req.url);
      const proxied = await proxyAgentFor(url);
      return send(req, proxied ?? pooled(url), agentName);
    },
    // preconnect opens nothing when the environment names a proxy (env-proxy.ts's agents).
    warm: (origin, count) => preconnect(origin, count),
  };
}

/** Sockets whose writes already wait for reads (a pooled socket serves many requests). */
const guarded = new WeakSet<Socket>();

function guardWrites(socket: Socket): void {
  if (guarded.has(socket)) return;
  guarded.add(socket);
  readBeforeWriteErrors(socket);
}

function send(req: TransportRequest, agent: Agent, agentName: string): Promise<TransportResponse> {
  if (req.signal?.aborted) return Promise.reject(abortedError());
  const url = new URL(req.url);
  const host = url.host;
  return new Promise<TransportResponse>((resolve, reject) => {
    const mod = httpModuleFor(url.protocol);
    let settled = false;
    // The whole request went; with the whole answer (finish) the connection may serve another.
    let requestEnded = false;
    let response: IncomingMessage | undefined;
    let pumping = false;
    let stopPump = false;
    // A body that failed (file changed, unreadable) is reported as itself, not as a network error.
    let bodyError: unknown;

    type Outcome = { ok: TransportResponse } | { error: unknown };
    const finish = (outcome: Outcome, answerEnded = false) => {
      if (settled) return;
      settled = true;
      deadline.stop();
      req.signal?.removeEventListener('abort', onAbort);
      stopPump = true;
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.error);
      // After an early answer the rest of the body is not wanted; after an error nothing is.
      if (!(requestEnded && answerEnded) && !request.destroyed) request.destroy();
    };
    const fail = (error: unknown) => finish({ error });
    const deadline = createDeadline({ host, idleTimeoutMs: req.idleTimeoutMs, onTimeout: fail });
    const touch = deadline.touch;
    const onAbort = () => fail(abortedError());

    const request: ClientRequest = mod.request(url, {
      method: req.method,
      headers: requestHeaders(req, agentName),
      agent,
    });
    req.signal?.addEventListener('abort', onAbort, { once: true });
    deadline.arm('connect_timeout', req.connectTimeoutMs);

    const stopped = () => stopPump || settled;
    const pump = async () => {
      if (pumping) return;
      pumping = true;
      try {
        requestEnded = await writeBody(request, req, touch, stopped);
      } catch (error) {
        bodyError = error;
        fail(error);
      }
    };
    request.on('socket', (socket: Socket) => {
      guardWrites(socket);
      onConnected(socket, url, () => {
        touch();
        void pump();
      });
    });

    request.on('error', (error) => {
      if (bodyError !== undefined) {
        fail(bodyError);
      } else if (!response) {
        fail(mapNodeError(error, host));
      }
      // With an answer in hand the response's own events decide (see readAnswer).
    });

    request.on('response', (res) => {
      response = res;
      stopPump = true;
      touch();
      readAnswer(res, touch, (ok, whole) => finish({ ok }, whole));
    });
  });
}

function requestHeaders(req: TransportRequest, agentName: string): Record<string, string> {
  const headers: Record<string, string> = {
    // A service's logs and rate limits can then tell which client and version called.
    'user-agent': agentName,
    ...req.headers,
    connection: 'keep-alive',
    'accept-encoding': 'identity',
  };
  if (req.body || req.contentLength !== undefined) {
    headers['content-length'] = String(req.contentLength ?? 0);
  }
  return headers;
}

/** Runs `connected` once the socket is connected (after the TLS handshake for https). */
function onConnected(socket: Socket, url: URL, connected: () => void): void {
  // A warm connection (preconnect.ts) can be connected while its TLS handshake still runs.
  if (!socket.connecting && !stillHandshaking(socket)) {
    connected();
  } else if (url.protocol === 'https:') {
    socket.once('secureConnect', connected);
  } else {
    socket.once('connect', connected);
  }
}

/** The answer, once it has ended (or broken off: what arrived is still the answer). */
function readAnswer(
  res: IncomingMessage,
  touch: () => void,
  /** `whole`: the answer ended as HTTP says it should (not broken off). */
  done: (answer: TransportResponse, whole: boolean) => void,
): void {
  const body = cappedBody();
  res.on('data', (chunk: Buffer) => {
    touch();
    body.add(chunk);
  });
  const answer = (): TransportResponse => {
    const headers = lowerCaseHeaders(res);
    return {
      status: res.statusCode ?? 0,
      headers,
      body: body.text(headers['content-encoding']),
    };
  };
  res.on('end', () => done(answer(), true));
  // The answer's body broke off: what arrived is still the answer (classification will find
  // it is not whole JSON).
  res.on('error', () => done(answer(), false));
  res.on('close', () => done(answer(), false));
}

/**
 * Writes the request's body as the socket takes it; stops when `stopped` (an early answer).
 * True once the whole request went (its end written).
 */
async function writeBody(
  request: ClientRequest,
  req: TransportRequest,
  touch: () => void,
  stopped: () => boolean,
): Promise<boolean> {
  if (!req.body) {
    request.end(() => touch());
    return true;
  }
  const drained = () =>
    new Promise<void>((resolveDrain) => {
      if (stopped() || request.destroyed) {
        resolveDrain();
        return;
      }
      const done = () => {
        request.off('drain', done);
        request.off('close', done);
        resolveDrain();
      };
      request.on('drain', done);
      request.on('close', done);
    });
  const writer = createBodyWriter(req);
  const outcome = await pumpBody(req.body, stopped, async (chunk) => {
    const slices = writer.slices(chunk);
    let roomLeft = true;
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i]!;
      const whole = i === slices.length - 1 ? chunk : undefined;
      roomLeft = request.write(slice, (error) => {
        if (error) return;
        touch();
        writer.written(slice.length, whole);
      });
    }
    if (!roomLeft) {
      await drained();
    }
    return true;
  });
  if (outcome !== 'ended') return false;
  request.end(() => touch());
  return true;
}
