import { execFileSync } from 'node:child_process';
import {
  appendFile,
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asUnprivileged } from '../../../test/helpers/unprivileged';
import type { AttemptResult, UploadJob } from './attempt';
import { uploadOnce, uploadWithRetries } from './engine';
import { FILE_CHUNK_BYTES } from './file-source';
import {
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from './transport';

// The engine against scripted transports: each stands in for one way the network can behave
// (the real network is exercised in node-transport.test.ts and test/upload/).

const TOKEN = 'xoxb-unit-secret-token';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-engine-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, size: number): Promise<string> {
  const path = join(dir, name);
  const content = Buffer.alloc(size);
  for (let i = 0; i < size; i++) content[i] = i & 0xff;
  await writeFile(path, content);
  return path;
}

function job(path: string, over: Partial<UploadJob> = {}): UploadJob {
  return {
    baseUrl: 'http://127.0.0.1:9',
    token: TOKEN,
    channels: ['C0GENERAL', 'C0DESIGN'],
    comment: 'hello',
    file: { path, name: 'report.pdf' },
    ...over,
  };
}

const okAnswer: TransportResponse = {
  status: 200,
  headers: {},
  body: JSON.stringify({ ok: true, file: { id: 'F1', name: 'report.pdf', permalink: 'p' } }),
};

interface Recorded {
  req: TransportRequest;
  body: Buffer;
}

/** A transport that reads `take` bytes of the body (all by default), then does `then`. */
function scripted(
  steps: ((seen: Recorded) => TransportResponse | Promise<TransportResponse>)[],
  take?: number,
): Transport & { calls: Recorded[] } {
  const calls: Recorded[] = [];
  return {
    calls,
    async request(req) {
      const parts: Buffer[] = [];
      let size = 0;
      if (req.body) {
        for await (const chunk of req.body) {
          parts.push(Buffer.from(chunk));
          size += chunk.length;
          // Copied, so taken: as a socket would say.
          req.onBodyWritten?.(chunk.length, chunk);
          if (take !== undefined && size >= take) break;
        }
      }
      const seen = { req, body: Buffer.concat(parts) };
      calls.push(seen);
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      return step(seen);
    },
  };
}

const answer = (r: TransportResponse) => () => r;
const fail = (code: TransportError['code']) => () => {
  throw new TransportError(code, 'Scripted failure.');
};

function parse(contentType: string, body: Buffer) {
  return new Promise<{ fields: Record<string, string>; filename?: string; size: number }>(
    (resolve, reject) => {
      const out: { fields: Record<string, string>; filename?: string; size: number } = {
        fields: {},
        size: 0,
      };
      const bb = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
      bb.on('field', (n, v) => {
        out.fields[n] = v;
      });
      bb.on('file', (_n, s, info) => {
        out.filename = info.filename;
        s.on('data', (c: Buffer) => {
          out.size += c.length;
        });
      });
      bb.on('close', () => resolve(out));
      bb.on('error', reject);
      Readable.from([body]).pipe(bb);
    },
  );
}

function reasonOf(result: AttemptResult) {
  if (result.kind === 'failed' || result.kind === 'unknown') return result.reason;
  throw new Error(`expected a reason, got ${result.kind}`);
}

describe('uploadOnce: the request', () => {
  it('POSTs files.upload with the bearer token in the header only, and the form fields', async () => {
    const path = await file('report.pdf', 300_000);
    const t = scripted([answer(okAnswer)]);
    const result = await uploadOnce(
      job(path, {
        channels: [' C0GENERAL', 'C0DESIGN', 'C0GENERAL'],
        baseUrl: 'http://127.0.0.1:9/',
      }),
      { transport: t },
    );
    expect(result).toEqual({
      kind: 'delivered',
      file: { id: 'F1', name: 'report.pdf', permalink: 'p' },
    });
    const { req, body } = t.calls[0]!;
    expect(req.url).toBe('http://127.0.0.1:9/api/files.upload');
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.contentLength).toBe(body.length);
    expect(req.connectTimeoutMs).toBe(15_000);
    expect(req.idleTimeoutMs).toBe(60_000);
    const form = await parse(req.headers['content-type']!, body);
    expect(form).toEqual({
      fields: { channels: 'C0GENERAL,C0DESIGN', initial_comment: 'hello', filename: 'report.pdf' },
      filename: 'report.pdf',
      size: 300_000,
    });
    // The token travels in the Authorization header and nowhere else.
    expect(req.url).not.toContain(TOKEN);
    expect(body.includes(TOKEN)).toBe(false);
    const others = Object.entries(req.headers).filter(([k]) => k !== 'authorization');
    expect(JSON.stringify(others)).not.toContain(TOKEN);
  });

  it('leaves out initial_comment when there is no comment', async () => {
    const path = await file('a.txt', 10);
    for (const comment of [undefined, '', '   ']) {
      const t = scripted([answer(okAnswer)]);
      await uploadOnce(job(path, { comment }), { transport: t });
      const form = await parse(t.calls[0]!.req.headers['content-type']!, t.calls[0]!.body);
      expect(Object.keys(form.fields)).toEqual(['channels', 'filename']);
    }
  });

  it('passes the timeouts it is given', async () => {
    const path = await file('a.txt', 10);
    const t = scripted([answer(okAnswer)]);
    await uploadOnce(job(path), { transport: t, connectTimeoutMs: 111, idleTimeoutMs: 222 });
    expect(t.calls[0]!.req).toMatchObject({ connectTimeoutMs: 111, idleTimeoutMs: 222 });
  });

  it('reports progress in file bytes, in order, ending at the file size', async () => {
    const size = 10 * FILE_CHUNK_BYTES + 5;
    const path = await file('big.bin', size);
    const events: [number, number][] = [];
    await uploadOnce(job(path), {
      transport: scripted([answer(okAnswer)]),
      onProgress: (sent, total) => events.push([sent, total]),
    });
    expect(events.at(-1)).toEqual([size, size]);
    expect(events.every(([, total]) => total === size)).toBe(true);
    const sent = events.map(([s]) => s);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    // Throttled: not one event per chunk.
    expect(events.length).toBeLessThan(11);
  });

  it('reports progress 0 of 0 for an empty file', async () => {
    const path = await file('empty.txt', 0);
    const events: [number, number][] = [];
    const result = await uploadOnce(job(path), {
      transport: scripted([answer(okAnswer)]),
      onProgress: (sent, total) => events.push([sent, total]),
    });
    expect(result.kind).toBe('delivered');
    expect(events).toEqual([[0, 0]]);
  });

  it.skipIf(process.platform !== 'linux')('closes the file after each attempt', async () => {
    const path = await file('a.txt', 1000);
    const fds = async () => (await readdir('/proc/self/fd')).length;
    const before = await fds();
    for (let i = 0; i < 20; i++) {
      await uploadOnce(job(path), { transport: scripted([fail('connection_refused')], 0) });
      await uploadOnce(job(path), { transport: scripted([answer(okAnswer)]) });
    }
    expect(await fds()).toBeLessThanOrEqual(before);
  });
});

describe('uploadOnce: refused before any byte is sent', () => {
  const cases: [string, Partial<UploadJob>, string][] = [
    ['no token', { token: '' }, 'no_token'],
    [
      'a webhook URL as the token',
      { token: 'https://hooks.slack.com/services/T0/B0/xyz' },
      'token_is_url',
    ],
    ['a token with a line break', { token: 'xoxb-1\nxoxb-2' }, 'token_malformed'],
    [
      'http to a host that is not loopback',
      { baseUrl: 'http://files.example.com' },
      'base_url_insecure',
    ],
    [
      'a webhook path as the base URL',
      { baseUrl: 'https://hooks.slack.com/services/T0/B0/x' },
      'base_url_webhook',
    ],
    ['a base URL that is not a URL', { baseUrl: 'slack' }, 'base_url_invalid'],
    ['no channels', { channels: [' ', ''] }, 'invalid_channels'],
    ['a channel ID with a space', { channels: ['C0 GENERAL'] }, 'invalid_channels'],
    [
      'more than 100 channels',
      { channels: Array.from({ length: 101 }, (_, i) => `C${i}`) },
      'invalid_channels',
    ],
  ];
  for (const [what, over, code] of cases) {
    it(`${what} → input/${code}, transport never called`, async () => {
      const path = await file('a.txt', 10);
      const t = scripted([answer(okAnswer)]);
      const result = await uploadOnce(job(path, over), { transport: t });
      expect(result.kind).toBe('failed');
      expect(reasonOf(result)).toMatchObject({ class: 'input', code });
      expect(reasonOf(result).message.length).toBeGreaterThan(20);
      expect(t.calls).toHaveLength(0);
    });
  }

  it('never repeats the token in a refusal', async () => {
    const path = await file('a.txt', 10);
    const token = 'https://hooks.slack.com/services/T0/B0/secretpart';
    const result = await uploadOnce(job(path, { token }), { transport: scripted([]) });
    expect(reasonOf(result).message).not.toContain('secretpart');
  });

  it('a missing file → file_missing', async () => {
    const t = scripted([answer(okAnswer)]);
    const result = await uploadOnce(job(join(dir, 'gone.txt')), { transport: t });
    expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'file_missing' });
    expect(reasonOf(result).message).toMatch(/moved or deleted/);
    expect(t.calls).toHaveLength(0);
  });

  it('a folder → not_a_file', async () => {
    await mkdir(join(dir, 'folder'));
    const result = await uploadOnce(job(join(dir, 'folder')), { transport: scripted([]) });
    expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'not_a_file' });
    expect(reasonOf(result).message).toMatch(/folder/);
  });

  it.skipIf(process.platform === 'win32')(
    'a named pipe → not_a_file (and no blocking open)',
    async () => {
      const fifo = join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const result = await uploadOnce(job(fifo), { transport: scripted([]) });
      expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'not_a_file' });
    },
  );

  // Root reads any file: as root (CI) the upload runs as nobody (test/helpers/unprivileged.ts).
  // Windows does not stop reading for a mode of 0o000.
  it.skipIf(process.platform === 'win32')(
    'a file without read permission → file_unreadable',
    async () => {
      const path = await file('secret.txt', 10);
      await chmod(path, 0o000);
      const result = await asUnprivileged([dir], () =>
        uploadOnce(job(path), { transport: scripted([]) }),
      );
      expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'file_unreadable' });
    },
  );

  it('a file whose size changed since it was queued → file_changed', async () => {
    const path = await file('a.txt', 10);
    const t = scripted([answer(okAnswer)]);
    const result = await uploadOnce(job(path, { file: { path, name: 'a.txt', expectedSize: 9 } }), {
      transport: t,
    });
    expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'file_changed' });
    expect(reasonOf(result).message).toMatch(/changed after it was queued/);
    expect(t.calls).toHaveLength(0);
  });

  it('a file whose mtime changed since it was queued → file_changed; the same mtime passes', async () => {
    const path = await file('a.txt', 10);
    const st = await stat(path);
    const ok = await uploadOnce(
      job(path, { file: { path, name: 'a.txt', expectedSize: 10, expectedMtimeMs: st.mtimeMs } }),
      { transport: scripted([answer(okAnswer)]) },
    );
    expect(ok.kind).toBe('delivered');
    await utimes(path, new Date(), new Date(st.mtimeMs + 5000));
    const changed = await uploadOnce(
      job(path, { file: { path, name: 'a.txt', expectedSize: 10, expectedMtimeMs: st.mtimeMs } }),
      { transport: scripted([answer(okAnswer)]) },
    );
    expect(reasonOf(changed)).toMatchObject({ class: 'input', code: 'file_changed' });
  });

  it('a file that changes while it is being sent → file_changed, and the last bytes never go out', async () => {
    const path = await file('grows.bin', 4 * FILE_CHUNK_BYTES);
    let hook = 0;
    const pulled: number[] = [];
    const t: Transport = {
      async request(req) {
        for await (const chunk of req.body!) {
          pulled.push(chunk.length);
          if (pulled.length === 2) await appendFile(path, 'more');
        }
        return okAnswer;
      },
    };
    const result = await uploadOnce(job(path), {
      transport: t,
      beforeBodyComplete: () => void hook++,
    });
    expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'file_changed' });
    expect(hook).toBe(0);
  });
});

describe('uploadOnce with blocking reads (the CLI): the same file checks, made on this thread', () => {
  const blocking = { blockingReads: true };

  it('a missing file, a folder → file_missing, not_a_file; nothing sent', async () => {
    await mkdir(join(dir, 'folder'));
    const t = scripted([]);
    const gone = await uploadOnce(job(join(dir, 'gone.txt')), { transport: t, ...blocking });
    expect(reasonOf(gone)).toMatchObject({ class: 'input', code: 'file_missing' });
    const folder = await uploadOnce(job(join(dir, 'folder')), { transport: t, ...blocking });
    expect(reasonOf(folder)).toMatchObject({ class: 'input', code: 'not_a_file' });
    expect(t.calls).toHaveLength(0);
  });

  it.skipIf(process.platform === 'win32')(
    'a named pipe → not_a_file (and no blocking open)',
    async () => {
      const fifo = join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const result = await uploadOnce(job(fifo), { transport: scripted([]), ...blocking });
      expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'not_a_file' });
    },
  );

  it('a file whose size changed since it was queued → file_changed; an unchanged one is delivered', async () => {
    const path = await file('a.txt', 10);
    const t = scripted([answer(okAnswer)]);
    const changed = await uploadOnce(
      job(path, { file: { path, name: 'a.txt', expectedSize: 9 } }),
      { transport: t, ...blocking },
    );
    expect(reasonOf(changed)).toMatchObject({ class: 'input', code: 'file_changed' });
    expect(t.calls).toHaveLength(0);
    const ok = await uploadOnce(job(path, { file: { path, name: 'a.txt', expectedSize: 10 } }), {
      transport: t,
      ...blocking,
    });
    expect(ok.kind).toBe('delivered');
  });

  it('a file that changes while it is being sent → file_changed, and the last bytes never go out', async () => {
    const path = await file('grows.bin', 4 * FILE_CHUNK_BYTES);
    let hook = 0;
    let pulled = 0;
    const t: Transport = {
      async request(req) {
        for await (const _chunk of req.body!) {
          if (++pulled === 2) await appendFile(path, 'more');
        }
        return okAnswer;
      },
    };
    const result = await uploadOnce(job(path), {
      transport: t,
      beforeBodyComplete: () => void hook++,
      ...blocking,
    });
    expect(reasonOf(result)).toMatchObject({ class: 'input', code: 'file_changed' });
    expect(hook).toBe(0);
  });
});

describe('uploadOnce: whether the whole body went out decides transient vs unknown', () => {
  it('beforeBodyComplete runs once, after all file bytes and before the last bytes are handed over', async () => {
    const path = await file('a.bin', 3 * FILE_CHUNK_BYTES);
    const order: string[] = [];
    let pulledBeforeHook = 0;
    let pulled = 0;
    const t: Transport = {
      async request(req) {
        for await (const chunk of req.body!) {
          pulled += chunk.length;
          order.push('chunk');
        }
        order.push('end');
        return okAnswer;
      },
    };
    await uploadOnce(job(path), {
      transport: t,
      beforeBodyComplete: async () => {
        pulledBeforeHook = pulled;
        order.push('hook');
      },
    });
    expect(order.filter((o) => o === 'hook')).toHaveLength(1);
    expect(order.slice(-3)).toEqual(['hook', 'chunk', 'end']);
    expect(pulledBeforeHook).toBeGreaterThan(3 * FILE_CHUNK_BYTES);
  });

  it('a reset after the whole body → unknown; the same reset mid-body → transient', async () => {
    const path = await file('a.bin', 3 * FILE_CHUNK_BYTES);
    const after = await uploadOnce(job(path), { transport: scripted([fail('connection_reset')]) });
    expect(after.kind).toBe('unknown');
    expect(reasonOf(after)).toMatchObject({ class: 'unknown-outcome', code: 'connection_reset' });

    let hook = 0;
    const mid = await uploadOnce(job(path), {
      transport: scripted([fail('connection_reset')], FILE_CHUNK_BYTES),
      beforeBodyComplete: () => void hook++,
    });
    expect(mid.kind).toBe('failed');
    expect(reasonOf(mid)).toMatchObject({ class: 'transient', code: 'connection_reset' });
    expect(hook).toBe(0);
  });

  it('an idle timeout after the whole body → unknown', async () => {
    const path = await file('a.bin', 1000);
    const result = await uploadOnce(job(path), { transport: scripted([fail('idle_timeout')]) });
    expect(reasonOf(result)).toMatchObject({ class: 'unknown-outcome', code: 'idle_timeout' });
  });

  it('target errors name the normalised channels', async () => {
    const path = await file('a.bin', 10);
    const result = await uploadOnce(job(path, { channels: ['C0DESIGN ', 'C0DESIGN'] }), {
      transport: scripted([
        answer({ status: 200, headers: {}, body: '{"ok":false,"error":"not_in_channel"}' }),
      ]),
    });
    expect(reasonOf(result)).toMatchObject({ class: 'target', channels: ['C0DESIGN'] });
    expect(reasonOf(result).message).toBe(
      "Trayshare's token is not a member of C0DESIGN: invite the app to the channel.",
    );
  });
});

describe('uploadOnce: cancellation', () => {
  it('an aborted signal → cancelled without a request', async () => {
    const path = await file('a.bin', 10);
    const t = scripted([answer(okAnswer)]);
    expect(await uploadOnce(job(path), { transport: t, signal: AbortSignal.abort() })).toEqual({
      kind: 'cancelled',
    });
    expect(t.calls).toHaveLength(0);
  });

  it('abort mid-body → cancelled', async () => {
    const path = await file('a.bin', 4 * FILE_CHUNK_BYTES);
    const controller = new AbortController();
    const t: Transport = {
      async request(req) {
        for await (const _ of req.body!) {
          controller.abort();
          throw new TransportError('aborted', 'The request was cancelled.');
        }
        return okAnswer;
      },
    };
    expect(await uploadOnce(job(path), { transport: t, signal: controller.signal })).toEqual({
      kind: 'cancelled',
    });
  });

  it('abort after the whole body was sent → unknown: it may already be there', async () => {
    const path = await file('a.bin', 10);
    const controller = new AbortController();
    const t: Transport = {
      async request(req) {
        for await (const _ of req.body!) {
          // consume it all
        }
        controller.abort();
        throw new TransportError('aborted', 'The request was cancelled.');
      },
    };
    const result = await uploadOnce(job(path), { transport: t, signal: controller.signal });
    expect(result.kind).toBe('unknown');
    expect(reasonOf(result)).toMatchObject({ code: 'cancelled_after_send' });
  });
});

describe('uploadWithRetries', () => {
  const unavailable = (retryAfter?: string): TransportResponse => ({
    status: 503,
    headers: retryAfter ? { 'retry-after': retryAfter } : {},
    body: '',
  });

  function recorder() {
    const slept: number[] = [];
    return { slept, sleep: async (ms: number) => void slept.push(ms) };
  }

  it('retries a transient failure, waiting at least Retry-After, then delivers', async () => {
    const path = await file('a.bin', 10);
    const t = scripted([answer(unavailable('3')), answer(okAnswer)]);
    const { slept, sleep } = recorder();
    const retries: [number, number, string][] = [];
    const result = await uploadWithRetries(job(path), {
      transport: t,
      sleep,
      retry: { random: () => 0 },
      onRetry: (attempt, ms, reason) => retries.push([attempt, ms, reason.code]),
    });
    expect(result.kind).toBe('delivered');
    expect(t.calls).toHaveLength(2);
    expect(slept).toEqual([3000]);
    expect(retries).toEqual([[1, 3000, 'http_503']]);
  });

  it('backs off exponentially between attempts and stops at maxAttempts', async () => {
    const path = await file('a.bin', 10);
    const t = scripted([answer(unavailable())]);
    const { slept, sleep } = recorder();
    const result = await uploadWithRetries(job(path), {
      transport: t,
      sleep,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250, random: () => 0.999_999 },
    });
    expect(t.calls).toHaveLength(4);
    expect(slept).toEqual([99, 199, 249]);
    expect(reasonOf(result)).toMatchObject({ class: 'transient', code: 'http_503' });
  });

  it.each([
    ['outcome unknown (reset after the body)', [fail('connection_reset')]],
    [
      'a credential error',
      [answer({ status: 200, headers: {}, body: '{"ok":false,"error":"invalid_auth"}' })],
    ],
    [
      'a target error',
      [answer({ status: 200, headers: {}, body: '{"ok":false,"error":"channel_not_found"}' })],
    ],
    [
      'a redirect',
      [answer({ status: 302, headers: { location: 'https://x.example/' }, body: '' })],
    ],
    [
      'an unknown code',
      [answer({ status: 200, headers: {}, body: '{"ok":false,"error":"weird"}' })],
    ],
  ])('never retries %s', async (_what, steps) => {
    const path = await file('a.bin', 10);
    const t = scripted(steps);
    const { slept, sleep } = recorder();
    await uploadWithRetries(job(path), { transport: t, sleep });
    expect(t.calls).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('never retries a refusal', async () => {
    const path = await file('a.bin', 10);
    const t = scripted([answer(okAnswer)]);
    const result = await uploadWithRetries(job(path, { token: '' }), { transport: t });
    expect(reasonOf(result).code).toBe('no_token');
    expect(t.calls).toHaveLength(0);
  });

  it('a cancel during the wait → cancelled, no further attempt', async () => {
    const path = await file('a.bin', 10);
    const t = scripted([answer(unavailable('60'))]);
    const controller = new AbortController();
    const pending = uploadWithRetries(job(path), { transport: t, signal: controller.signal });
    while (t.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await pending).toEqual({ kind: 'cancelled' });
    expect(t.calls).toHaveLength(1);
  });
});

describe('uploadOnce: the token stays out of what people and logs see', () => {
  it('a service that echoes the token in its error code or Location gets it blanked', async () => {
    const path = await file('a.bin', 10);
    const echoed = await uploadOnce(job(path), {
      transport: scripted([
        answer({
          status: 200,
          headers: {},
          body: JSON.stringify({ ok: false, error: `bad_${TOKEN}` }),
        }),
      ]),
    });
    expect(reasonOf(echoed)).toMatchObject({ class: 'other', code: 'bad_[token]' });
    expect(JSON.stringify(echoed)).not.toContain(TOKEN);

    const redirected = await uploadOnce(job(path), {
      transport: scripted([
        answer({ status: 302, headers: { location: `https://x.example/?t=${TOKEN}` }, body: '' }),
      ]),
    });
    expect(reasonOf(redirected).location).toBe('https://x.example/?t=[token]');
    expect(JSON.stringify(redirected)).not.toContain(TOKEN);
  });
});
