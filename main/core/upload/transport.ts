// The network seam. The engine builds requests; a transport moves bytes. The CLI and tests use
// Node's http/https (node-transport.ts); the app routes each request by the system's proxy
// settings (proxy-routing-transport.ts): DIRECT through Node's stack, proxied through
// Electron's `net`. A transport never follows redirects.
//
// Here too is what every transport shares, in the order a request goes: the body pulled chunk
// by chunk and handed to the socket in slices, the connect and idle deadlines, and the answer
// read back (capped, its Content-Encoding undone).
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

export interface TransportRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Request body, pulled chunk by chunk so file bytes go from disk to socket. */
  body?: AsyncIterable<Uint8Array>;
  /**
   * Called as the socket takes the body: `bytes` more are out of the process (in the OS's hands,
   * or Chromium's); `chunk` is a body chunk, exactly as the body yielded it, once every byte of
   * it is out, so its buffer may be reused. In order; never for bytes that were not taken.
   */
  onBodyWritten?: (bytes: number, chunk: Uint8Array | undefined) => void;
  /**
   * Exact body length, sent as Content-Length by transports that can (Node's). Electron's `net`
   * cannot set it and sends the body chunked; the body is streamed either way.
   */
  contentLength?: number;
  signal?: AbortSignal;
  /** Give up if no connection is established within this time. */
  connectTimeoutMs: number;
  /** Give up if nothing is sent or received for this long (no total timeout: large files take long). */
  idleTimeoutMs: number;
}

/** Answers are small JSON; a transport cuts the body beyond this (it is then not valid JSON). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Collects an answer's body up to MAX_RESPONSE_BYTES; the rest is dropped (answers are small JSON). */
export function cappedBody(): {
  add(chunk: Buffer): void;
  /** The text, with the answer's Content-Encoding (if any) undone. */
  text(contentEncoding?: string): string;
} {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk) {
      const room = MAX_RESPONSE_BYTES - size;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      size += part.length;
    },
    text: (contentEncoding) =>
      decodeAnswer(Buffer.concat(chunks), contentEncoding, MAX_RESPONSE_BYTES),
  };
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Response body as text (answers are small JSON; capped by the transport). */
  body: string;
}

export type TransportErrorCode =
  | 'connect_timeout'
  | 'idle_timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_failure'
  | 'tls_error'
  | 'aborted'
  | 'network_error';

/** A failure below HTTP. Whether the body was fully sent is decided by the engine, which owns the body. */
export class TransportError extends Error {
  readonly code: TransportErrorCode;
  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportError';
    this.code = code;
  }
}

export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
  /**
   * Opens up to `count` connections to `origin` ahead of requests, where this transport can
   * (direct requests over Node's stack: preconnect.ts). Sends nothing, never throws; a
   * transport that cannot leaves it out.
   */
  warm?(origin: string, count: number): void;
}

// ---- The body: pulled chunk by chunk.
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

// ---- The body: handed to the socket in slices.
// How a transport hands body chunks to its socket so the engine learns, as the socket takes
// them, how many bytes are out and which chunk buffers it may reuse. A chunk is written in
// slices, each with its own write callback: progress then moves at least several times a second
// on a slow link, while on a fast one the slices grow to the whole chunk and cost nothing extra.
const MIN_SLICE = 16 * 1024;
const MAX_SLICE = 1024 * 1024;
const FIRST_SLICE = 128 * 1024;
/** Aim for a callback about this often: several progress updates a second, whatever the rate. */
const TARGET_GAP_MS = 100;

export interface BodyWriter {
  /** The chunk cut into the slices to write now (views, no copies). */
  slices(chunk: Uint8Array): Uint8Array[];
  /** Call from a slice's successful write callback; `chunk` on its last slice. */
  written(bytes: number, chunk: Uint8Array | undefined): void;
}

/** The largest power of two at most `bytes`, within the slice bounds. */
function fitSlice(bytes: number): number {
  let size = MIN_SLICE;
  while (size * 2 <= bytes && size < MAX_SLICE) size *= 2;
  return size;
}

export function createBodyWriter(
  req: Pick<TransportRequest, 'onBodyWritten'>,
  now: () => number = () => performance.now(),
): BodyWriter {
  let slice = FIRST_SLICE;
  let last = now();
  return {
    slices(chunk) {
      if (chunk.length <= slice) return [chunk];
      const out: Uint8Array[] = [];
      for (let at = 0; at < chunk.length; at += slice) out.push(chunk.subarray(at, at + slice));
      return out;
    },
    written(bytes, chunk) {
      const t = now();
      const gap = t - last;
      last = t;
      // Callbacks far apart: smaller slices. Close together: larger ones, fewer calls.
      if (gap > TARGET_GAP_MS) slice = fitSlice((bytes * TARGET_GAP_MS) / gap);
      else if (gap < TARGET_GAP_MS / 4 && slice < MAX_SLICE) slice = Math.min(MAX_SLICE, slice * 2);
      req.onBodyWritten?.(bytes, chunk);
    },
  };
}

// ---- The deadlines.
// Connect and idle timeouts, shared by every transport: one timer, and every sign of life (a
// chunk taken, a byte of the answer) pushes the deadline back. There is deliberately no total
// timeout: a large file on a slow link takes as long as it takes.
type TimeoutCode = 'connect_timeout' | 'idle_timeout';

export interface Deadline {
  /** (Re)starts the timer: after `ms` of nothing, `onTimeout` gets the matching error. */
  arm(code: TimeoutCode, ms: number): void;
  /** Something moved: restart the idle timer. No effect once stopped. */
  touch(): void;
  /** The request is over: clear the timer for good. */
  stop(): void;
}

export interface DeadlineOptions {
  host: string;
  idleTimeoutMs: number;
  onTimeout: (error: TransportError) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** A monotonic clock in milliseconds. */
  now?: () => number;
}

export function createDeadline(options: DeadlineOptions): Deadline {
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const now = options.now ?? (() => performance.now());
  const { host } = options;
  let timer: unknown;
  let stopped = false;
  let code: TimeoutCode = 'idle_timeout';
  let limitMs = 0;
  let lastSign = 0;
  const clear = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
  };
  // A touch only notes the time (it comes with every chunk the socket takes: re-arming a timer
  // each time was ~10% of the CLI's JavaScript time per GiB); the timer, when it fires, waits
  // out whatever is left since the last sign of life.
  const expire = () => {
    timer = undefined;
    if (stopped) return;
    const left = lastSign + limitMs - now();
    if (left > 0) {
      timer = setTimer(expire, Math.min(left, limitMs));
      return;
    }
    const seconds = Math.round(limitMs / 1000);
    options.onTimeout(
      new TransportError(
        code,
        code === 'connect_timeout'
          ? `No connection to ${host} within ${seconds} s.`
          : `${host} went silent: nothing sent or received for ${seconds} s.`,
      ),
    );
  };
  const arm = (armCode: TimeoutCode, ms: number) => {
    if (stopped) return;
    clear();
    code = armCode;
    limitMs = ms;
    lastSign = now();
    timer = setTimer(expire, ms);
  };
  return {
    arm,
    touch: () => {
      if (stopped) return;
      if (code === 'idle_timeout' && timer !== undefined) lastSign = now();
      else arm('idle_timeout', options.idleTimeoutMs);
    },
    stop: () => {
      stopped = true;
      clear();
    },
  };
}

/** The error every transport gives when the caller's AbortSignal fires. */
export function abortedError(): TransportError {
  return new TransportError('aborted', 'The request was cancelled.');
}

// ---- The answer: decoded.
// Answers are asked for with `Accept-Encoding: identity`, yet some proxies and servers compress
// anyway. A gzip-encoded `ok: true` read as text is not JSON, so a delivered file would show as
// "may have been delivered": decode what comes. Answers are small, so this is done whole, with
// the output capped (a compressed answer must not expand without bound).
// node:zlib is loaded only when an answer comes encoded (~3 ms at every start otherwise).

const require = createRequire(import.meta.url);
let loaded: typeof Zlib | undefined;
const zlib = (): typeof Zlib => {
  loaded ??= require('node:zlib') as typeof Zlib;
  return loaded;
};

const isZlibHeader = (cmf: number, flg: number): boolean =>
  (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;

function decoderFor(
  encoding: string,
  bytes: Buffer,
): ((b: Buffer, o: Zlib.ZlibOptions) => Buffer) | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib().gunzipSync;
    case 'deflate':
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
      return isZlibHeader(bytes[0] ?? 0, bytes[1] ?? 0)
        ? zlib().inflateSync
        : zlib().inflateRawSync;
    case 'br':
      return zlib().brotliDecompressSync;
    default:
      return undefined;
  }
}

/** The answer's text, with any Content-Encoding undone. Bytes that do not decode as labelled
 * (e.g. a stack that already decoded them) are returned as they came. */
function decodeAnswer(
  bytes: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
): string {
  let out = bytes;
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  // Encodings are listed in the order they were applied: undo them last first.
  for (const encoding of encodings.reverse()) {
    const decode = out.length > 1 ? decoderFor(encoding, out) : undefined;
    if (!decode) break;
    try {
      out = decode(out, { maxOutputLength: maxBytes });
    } catch {
      break;
    }
  }
  return out.subarray(0, maxBytes).toString('utf8');
}
