// One request and its answer, with the HTTP/1.1 manners that decide what a client sees when the
// service answers before it has read the body (refusals, injected faults):
// - A client that sent `Expect: 100-continue` holds the body back; answering without
//   `100 Continue` means the body never comes, so the connection is closed after the answer.
// - Any other client may still be sending. Closing at once makes the kernel send RST over bytes
//   still in flight, and the client may see ECONNRESET/EPIPE instead of the answer. So the rest
//   of the body is read and thrown away (never stored), within a byte and time budget; only a
//   client that keeps sending past it is cut off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { answerBody, type RecordedRequest } from './request-log';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function jsonAnswer(
  payload: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(payload),
  };
}

/** Slack's failure shape: HTTP 200 (unless said otherwise), `ok:false`, the code repeated in a header. */
export function slackError(
  code: string,
  status = 200,
  headers: Record<string, string> = {},
): Answer {
  return jsonAnswer({ ok: false, error: code }, status, { 'x-slack-failure': code, ...headers });
}

export function textAnswer(
  status: number,
  text: string,
  headers: Record<string, string> = {},
): Answer {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
    body: text,
  };
}

export interface LingerBudget {
  /** Body bytes still read and discarded after an early answer before the connection is cut. */
  bytes: number;
  /** How long the rest of the body may take before the connection is cut. */
  ms: number;
}

export class Exchange {
  private continueSent = false;
  /** Set when the service records requests (request-log.ts). */
  record: RecordedRequest | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly waitsForContinue: boolean,
    private readonly linger: LingerBudget,
  ) {}

  /** True while a client that asked for `100 Continue` is still holding its body back. */
  get bodyWithheld(): boolean {
    return this.waitsForContinue && !this.continueSent;
  }

  get answered(): boolean {
    return this.res.headersSent || this.res.destroyed;
  }

  get contentLength(): number | undefined {
    const raw = this.req.headers['content-length'];
    if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
    return Number(raw);
  }

  /** Tells a client waiting on `Expect: 100-continue` to send its body. */
  letBodyCome(): void {
    if (this.bodyWithheld) {
      this.continueSent = true;
      this.res.writeContinue();
    }
  }

  /** Notes arguments as a handler read them, for the request log. */
  noteArgs(args: Record<string, unknown>): void {
    if (this.record) Object.assign(this.record.args, args);
  }

  /** `encoding` compresses the answer whatever the client asked for (an injected fault). */
  send(answer: Answer, encoding?: 'gzip' | 'deflate' | 'br'): void {
    if (this.answered) return;
    if (this.record) this.record.answer = { status: answer.status, body: answerBody(answer.body) };
    const text = Buffer.from(answer.body, 'utf8');
    const body =
      encoding === 'gzip'
        ? gzipSync(text)
        : encoding === 'deflate'
          ? deflateSync(text)
          : encoding === 'br'
            ? brotliCompressSync(text)
            : text;
    const headers = encoding ? { ...answer.headers, 'content-encoding': encoding } : answer.headers;
    this.res.writeHead(answer.status, { ...headers, 'content-length': String(body.length) });
    this.res.end(body);
  }

  /** Answers without reading the body (see the file comment for why it is done this way). */
  refuseBeforeBody(answer: Answer): void {
    if (this.answered) return;
    if (this.bodyWithheld) {
      this.send({ ...answer, headers: { ...answer.headers, connection: 'close' } });
      return;
    }
    this.send(answer);
    this.discardRest();
  }

  /** Reads what is left of the body into nothing, within the linger budget, then cuts. */
  discardRest(): void {
    const { req } = this;
    if (req.complete || req.destroyed) return;
    let seen = 0;
    const cut = (): void => {
      stop();
      req.socket?.destroy();
    };
    const timer = setTimeout(cut, this.linger.ms);
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > this.linger.bytes) cut();
    };
    const stop = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
    };
    req.on('data', onData);
    req.once('end', stop);
    req.once('close', stop);
    req.resume();
  }

  /** Reads the whole body and throws it away. Resolves false if the client went away first. */
  drainBody(): Promise<boolean> {
    const { req } = this;
    this.letBodyCome();
    if (req.complete) return Promise.resolve(true);
    if (req.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      req.once('end', () => resolve(true));
      req.once('close', () => resolve(req.complete));
      req.resume();
    });
  }

  /** Drops the connection with a TCP reset and no answer, as a failing network would. */
  reset(): void {
    const socket = this.req.socket;
    if (!socket || socket.destroyed) return;
    socket.resetAndDestroy();
  }
}
