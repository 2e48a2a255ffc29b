// The network seam. The engine builds requests; a transport moves bytes. The CLI and tests use
// Node's http/https (node-transport.ts); the app routes each request by the system's proxy
// settings (proxy-routing-transport.ts): DIRECT through Node's stack, proxied through
// Electron's `net`. A transport never follows redirects.
import { decodeAnswer } from './answer-decoding';

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
}
