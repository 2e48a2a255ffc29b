// A plain sink: accepts any POST, reads and discards the body, and answers as Slack would.
// Measuring a client against it leaves out everything the reference service does (parsing
// the form, hashing, writing to disk), so "sink vs service" shows whether the service is
// what limits a run.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { epochNow } from './clock';

export interface SinkRequest {
  method: string;
  bodyBytes: number;
  /**
   * When the request's first body bytes arrived, as epoch milliseconds with sub-millisecond
   * precision (performance.timeOrigin + performance.now()), so another process on this machine
   * can compare it with its own clock (bench/clients/app-path.ts).
   */
  firstBodyAt?: number;
}

export interface Sink {
  url: string;
  /** Requests answered since the last reset, in arrival order. */
  requests(): SinkRequest[];
  reset(): void;
  close(): Promise<void>;
}

/** How much of a multipart body is searched for the file name (the parts before the file). */
const HEAD_BYTES = 8 * 1024;
/** Form-encoded API calls (external protocol steps) are small; anything above is not parsed. */
const FORM_BYTES = 64 * 1024;

function fileObject(id: string, name: string, size: number, channels: string[]) {
  const now = Math.floor(Date.now() / 1000);
  return {
    id,
    name,
    title: name,
    mimetype: 'application/octet-stream',
    filetype: 'binary',
    size,
    created: now,
    timestamp: now,
    user: 'U0SINK',
    channels,
    permalink: `https://sink.invalid/files/U0SINK/${id}/${encodeURIComponent(name)}`,
    url_private: `https://sink.invalid/files-pri/${id}/${encodeURIComponent(name)}`,
  };
}

function newId(prefix: string): string {
  return prefix + randomBytes(5).toString('hex').toUpperCase();
}

function formParams(head: Buffer, contentType: string | undefined): URLSearchParams {
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(head.toString('utf8'));
  }
  if (contentType?.startsWith('application/json')) {
    try {
      const json = JSON.parse(head.toString('utf8')) as Record<string, unknown>;
      return new URLSearchParams(
        Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams();
}

/** Picks `filename="…"` and the channels part out of the first bytes of a multipart body. */
function multipartHints(head: Buffer): { name: string; channels: string[] } {
  const text = head.toString('latin1');
  const name = /filename="([^"]*)"/.exec(text)?.[1] ?? 'upload';
  const channels = /name="channels"\r\n\r\n([^\r]*)\r\n/.exec(text)?.[1] ?? '';
  return { name, channels: channels.split(',').filter(Boolean) };
}

export interface SinkOptions {
  /**
   * Reads each request body no faster than this, like a network link of that speed: TCP
   * backpressure then slows the client exactly as a real link would.
   */
  bytesPerSecond?: number;
}

/** The JSON answer of an API method: what a client needs to go on, nothing checked. */
function apiAnswer(
  method: string,
  first: Buffer,
  req: http.IncomingMessage,
  bytes: number,
): unknown {
  const base = `http://${req.headers.host ?? '127.0.0.1'}`;
  let answer: unknown;
  if (method === 'files.getUploadURLExternal') {
    const id = newId('F');
    answer = { ok: true, upload_url: `${base}/upload/${id}`, file_id: id };
  } else if (method === 'files.completeUploadExternal') {
    const params = formParams(first, req.headers['content-type']);
    let files: { id: string; title?: string }[] = [];
    try {
      files = JSON.parse(params.get('files') ?? '[]') as { id: string; title?: string }[];
    } catch {
      files = [];
    }
    const channels = (params.get('channels') ?? params.get('channel_id') ?? '')
      .split(',')
      .filter(Boolean);
    answer = {
      ok: true,
      files: files.map((f) => fileObject(f.id, f.title ?? 'upload', 0, channels)),
    };
  } else if (method === 'auth.test') {
    answer = { ok: true, user_id: 'U0SINK', user: 'sink', team: 'Sink' };
  } else {
    const hints = multipartHints(first.subarray(0, HEAD_BYTES));
    answer = { ok: true, file: fileObject(newId('F'), hints.name, bytes, hints.channels) };
  }
  return answer;
}

export async function startSink(options: SinkOptions = {}): Promise<Sink> {
  const rate = options.bytesPerSecond;
  let seen: SinkRequest[] = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'application/json' });
      res.end('{"ok":false,"error":"method_not_allowed"}');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://sink').pathname;
    const method = path.startsWith('/upload/') ? 'upload' : path.replace(/^\/api\//, '');
    const head: Buffer[] = [];
    let headBytes = 0;
    let bytes = 0;
    const started = performance.now();
    let firstBodyAt: number | undefined;
    req.on('data', (chunk: Buffer) => {
      firstBodyAt ??= epochNow();
      bytes += chunk.length;
      if (rate) {
        const ahead = started + (bytes / rate) * 1000 - performance.now();
        if (ahead > 1) {
          req.pause();
          setTimeout(() => req.resume(), ahead);
        }
      }
      const limit = Math.max(HEAD_BYTES, FORM_BYTES);
      if (headBytes < limit) {
        const part = chunk.subarray(0, limit - headBytes);
        head.push(part);
        headBytes += part.length;
      }
    });
    req.on('end', () => {
      seen.push({ method, bodyBytes: bytes, ...(firstBodyAt ? { firstBodyAt } : {}) });
      if (method === 'upload') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`OK - ${bytes}`);
        return;
      }
      const answer = apiAnswer(method, Buffer.concat(head), req, bytes);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    reset: () => {
      seen = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx bench/sink.ts [MBIT_PER_S]` runs it alone (for measuring a client by hand): prints
// its base URL.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const mbit = Number(process.argv[2] ?? 0);
  const sink = await startSink(mbit > 0 ? { bytesPerSecond: (mbit * 1e6) / 8 } : {});
  process.stdout.write(`listening ${sink.url}\n`);
  const stop = () => void sink.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
