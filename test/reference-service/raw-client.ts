// A deliberately plain HTTP client for the service's own tests: Node's http module with no
// retries, no redirects and no interpretation, so a test sees exactly what went over the wire.
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { Readable } from 'node:stream';

export type RawResult =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; text: string }
  | { kind: 'error'; code: string; message: string };

export type Part =
  | { name: string; value: string }
  | { name: string; filename?: string; content: Buffer; contentType?: string };

/** A multipart/form-data body, built in memory (test files are small). */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----trayshare-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
      continue;
    }
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
          `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A Buffer is sent with Content-Length; a stream is sent chunked unless a length header is given. */
  body?: Buffer | Readable;
}

/** One request; resolves with the answer, or with the socket error when none came. */
export function send(url: string, opts: SendOptions = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: RawResult): void => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const headers = { ...opts.headers };
    if (Buffer.isBuffer(opts.body)) headers['content-length'] = String(opts.body.length);
    const req = request(url, { method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        settle({
          kind: 'response',
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        settle({ kind: 'error', code: err.code ?? 'ERR', message: err.message }),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      settle({ kind: 'error', code: err.code ?? 'ERR', message: err.message }),
    );
    if (opts.body instanceof Readable) {
      opts.body.on('error', () => req.destroy());
      opts.body.pipe(req);
    } else {
      req.end(opts.body);
    }
  });
}

/** A body that never ends by itself: chunks keep coming until `stop()`. */
export function endlessBody(chunkBytes = 64 * 1024): {
  body: Readable;
  stop: () => void;
  sent: () => number;
} {
  let stopped = false;
  let sent = 0;
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  const body = new Readable({
    read() {
      if (stopped) return;
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return {
    body,
    stop: () => {
      stopped = true;
    },
    sent: () => sent,
  };
}

export interface UploadArgs {
  token?: string | null;
  channels?: string;
  comment?: string;
  file?: { name: string; content: Buffer } | null;
  extra?: Part[];
  headers?: Record<string, string>;
}

/** POST /api/files.upload the way the seed describes it. */
export function upload(baseUrl: string, args: UploadArgs = {}): Promise<RawResult> {
  const parts: Part[] = [];
  if (args.channels !== undefined) parts.push({ name: 'channels', value: args.channels });
  if (args.comment !== undefined) parts.push({ name: 'initial_comment', value: args.comment });
  const file =
    args.file === undefined ? { name: 'note.txt', content: Buffer.from('hello\n') } : args.file;
  if (file) parts.push({ name: 'file', filename: file.name, content: file.content });
  parts.push(...(args.extra ?? []));
  const { body, contentType } = multipart(parts);
  const token = args.token === undefined ? 'xoxb-test-token' : args.token;
  const headers: Record<string, string> = { 'content-type': contentType, ...args.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return send(`${baseUrl}/api/files.upload`, { body, headers });
}

/** POST an API method with form-urlencoded arguments. */
export function callApi(
  baseUrl: string,
  method: string,
  args: Record<string, string>,
  token: string | null = 'xoxb-test-token',
): Promise<RawResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return send(`${baseUrl}/api/${method}`, {
    body: Buffer.from(new URLSearchParams(args).toString()),
    headers,
  });
}

/** The parsed JSON of an answer; fails the test with what came instead. */
export function json(
  result: RawResult,
): Record<string, unknown> & { ok?: boolean; error?: string } {
  if (result.kind !== 'response')
    throw new Error(`expected an answer, got ${result.code}: ${result.message}`);
  try {
    return JSON.parse(result.text);
  } catch {
    throw new Error(`expected JSON, got HTTP ${result.status}: ${result.text.slice(0, 200)}`);
  }
}

export function response(result: RawResult): Extract<RawResult, { kind: 'response' }> {
  if (result.kind !== 'response')
    throw new Error(`expected an answer, got ${result.code}: ${result.message}`);
  return result;
}
