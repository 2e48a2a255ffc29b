// The external protocol's decisions, with a scripted transport standing in for the service so
// each answer (and each lost answer) comes exactly where a test wants it. The end-to-end tests
// in test/external/ run the same code against the reference service.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadJob } from '../attempt';
import {
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from '../transport';
import type { ExternalAttemptOptions } from './request';
import { asExternalCheckpoint, type ExternalCheckpoint } from './request';
import { uploadExternal } from './send-file';

const BASE = 'http://127.0.0.1:8000';
const TOKEN = 'xoxb-unit-token';

interface Seen {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

type Answer = (seen: Seen) => TransportResponse | TransportError;

/** Answers requests in order; each body is read to the end first, as a server would. */
function scripted(answers: Answer[], events: string[] = []) {
  const seen: Seen[] = [];
  const transport: Transport = {
    async request(req: TransportRequest) {
      const chunks: Buffer[] = [];
      for await (const chunk of req.body ?? []) {
        chunks.push(Buffer.from(chunk));
        req.onBodyWritten?.(chunk.length, chunk);
      }
      const s = { url: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      events.push(`request ${new URL(req.url).pathname}`);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected request to ${req.url}`);
      const out = answer(s);
      if (out instanceof TransportError) throw out;
      return out;
    },
  };
  return { transport, seen };
}

const json =
  (value: unknown, status = 200): Answer =>
  () => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
const text =
  (status: number, body = ''): Answer =>
  () => ({ status, headers: {}, body });
const lost = (): Answer => () => new TransportError('idle_timeout', 'The service went silent.');
const ticket = (uploadUrl = `${BASE}/_upload/F1?s=secret`) =>
  json({ ok: true, upload_url: uploadUrl, file_id: 'F1' });
const shared = json({ ok: true, files: [{ id: 'F1', permalink: `${BASE}/files/F1` }] });

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-external-unit-'));
  file = join(dir, 'plan.txt');
  await writeFile(file, 'the plan\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function job(over: Partial<UploadJob> = {}): UploadJob {
  return {
    baseUrl: BASE,
    token: TOKEN,
    channels: ['C1', 'C2'],
    comment: 'see this',
    file: { path: file, name: 'plan.txt' },
    ...over,
  };
}

function run(
  answers: Answer[],
  opts: Partial<ExternalAttemptOptions> = {},
  over: Partial<UploadJob> = {},
) {
  const events: string[] = [];
  const checkpoints: (ExternalCheckpoint | null)[] = [];
  const { transport, seen } = scripted(answers, events);
  const result = uploadExternal(job(over), {
    transport,
    sleep: async () => {},
    checkpoint: (cp) => {
      checkpoints.push(cp);
      events.push(
        cp ? `checkpoint ${cp.completing ? 'completing' : 'uploaded'}` : 'checkpoint none',
      );
    },
    beforeBodyComplete: () => {
      events.push('body complete');
    },
    ...opts,
  });
  return { result, seen, events, checkpoints };
}

const paths = (seen: Seen[]) => seen.map((s) => new URL(s.url).pathname);

describe('external protocol: the three steps', () => {
  it('asks for an address, streams the bytes, then shares once with every channel and the comment', async () => {
    const r = run([ticket(), text(200, 'OK - 9'), shared]);
    expect(await r.result).toEqual({
      kind: 'delivered',
      file: { id: 'F1', permalink: `${BASE}/files/F1` },
    });
    expect(paths(r.seen)).toEqual([
      '/api/files.getUploadURLExternal',
      '/_upload/F1',
      '/api/files.completeUploadExternal',
    ]);
    const [step1, step2, step3] = r.seen;
    expect(Object.fromEntries(new URLSearchParams(step1!.body.toString()))).toEqual({
      filename: 'plan.txt',
      length: '9',
    });
    expect(step2!.body.toString()).toBe('the plan\n');
    expect(step2!.headers['content-type']).toBe('application/octet-stream');
    expect(Object.fromEntries(new URLSearchParams(step3!.body.toString()))).toEqual({
      files: JSON.stringify([{ id: 'F1', title: 'plan.txt' }]),
      channels: 'C1,C2',
      initial_comment: 'see this',
    });
    for (const s of [step1!, step3!]) expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('marks "the service may have it" only for the sharing step, after the bytes were received', async () => {
    const r = run([ticket(), text(200), shared]);
    await r.result;
    expect(r.events).toEqual([
      'request /api/files.getUploadURLExternal',
      'request /_upload/F1',
      'checkpoint uploaded',
      'checkpoint completing',
      'body complete',
      'request /api/files.completeUploadExternal',
    ]);
    expect(r.checkpoints[0]).toMatchObject({ protocol: 'external', baseUrl: BASE, fileId: 'F1' });
  });

  it('sends the token with the bytes only to the base URL’s own origin', async () => {
    const same = run([ticket(`${BASE}/_upload/F1?s=1`), text(200), shared]);
    await same.result;
    expect(same.seen[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const other = run([ticket('http://127.0.0.1:9000/_upload/F1?s=1'), text(200), shared]);
    expect((await other.result).kind).toBe('delivered');
    expect(other.seen[1]!.headers.authorization).toBeUndefined();
  });

  it('refuses an upload address in plain http off this computer, sending nothing there', async () => {
    const r = run([ticket('http://files.example.com/upload/F1')]);
    expect(await r.result).toMatchObject({
      kind: 'failed',
      reason: { class: 'other', code: 'upload_url_refused' },
    });
    expect(r.seen).toHaveLength(1);
  });

  it('refuses an empty file before any request (the protocol cannot send one)', async () => {
    await writeFile(file, '');
    const r = run([]);
    expect(await r.result).toMatchObject({
      kind: 'failed',
      reason: { class: 'input', code: 'empty_file' },
    });
    expect(r.seen).toHaveLength(0);
  });

  it('tells to switch back to files.upload when the service has no external protocol', async () => {
    const r = run([json({ ok: false, error: 'unknown_method' })]);
    const result = await r.result;
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'other', code: 'unknown_method' },
    });
    expect(result.kind === 'failed' && result.reason.message).toMatch(/files\.upload/);
  });
});

describe('external protocol: nothing is shared before step 3', () => {
  it('reports a lost answer to step 1 or 2 as safe to retry, not as "may have been delivered"', async () => {
    for (const answers of [[lost()], [ticket(), lost()], [ticket(), text(502, '<html>')]]) {
      const r = run(answers);
      const result = await r.result;
      expect(result).toMatchObject({ kind: 'failed', reason: { class: 'transient' } });
      expect(r.events).not.toContain('body complete');
    }
  });

  it('gets a new address once when the upload address has expired', async () => {
    const r = run([ticket(), text(410, 'Gone'), ticket(), text(200), shared]);
    expect((await r.result).kind).toBe('delivered');
    expect(paths(r.seen).filter((p) => p === '/api/files.getUploadURLExternal')).toHaveLength(2);
  });
});

describe('external protocol: step 3 and resuming', () => {
  const checkpoint = (over: Partial<ExternalCheckpoint> = {}): ExternalCheckpoint => ({
    protocol: 'external',
    baseUrl: BASE,
    fileId: 'F1',
    uploadedAt: Date.now(),
    completing: false,
    ...over,
  });

  it('resumes at step 3 from a checkpoint without sending the bytes again', async () => {
    const r = run(
      [shared],
      { resume: checkpoint() },
      { file: { path: join(dir, 'gone'), name: 'plan.txt' } },
    );
    expect((await r.result).kind).toBe('delivered');
    expect(paths(r.seen)).toEqual(['/api/files.completeUploadExternal']);
  });

  it('starts over when the service no longer holds a resumed upload and no share was sent', async () => {
    const r = run([json({ ok: false, error: 'file_not_found' }), ticket(), text(200), shared], {
      resume: checkpoint(),
    });
    expect((await r.result).kind).toBe('delivered');
    expect(paths(r.seen)).toEqual([
      '/api/files.completeUploadExternal',
      '/api/files.getUploadURLExternal',
      '/_upload/F1',
      '/api/files.completeUploadExternal',
    ]);
  });

  it('starts over without asking when a checkpoint is older than the upload lifetime', async () => {
    const r = run([ticket(), text(200), shared], {
      resume: checkpoint({ uploadedAt: Date.now() - 3_600_000 }),
      uploadTtlMs: 600_000,
    });
    expect((await r.result).kind).toBe('delivered');
    expect(paths(r.seen)[0]).toBe('/api/files.getUploadURLExternal');
  });

  // files.info's answer: the file object with its `shares` (https://docs.slack.dev/reference/objects/file-object).
  const info = (channels: string[], ts = '1700000000.000100'): Answer =>
    json({
      ok: true,
      file: {
        id: 'F1',
        permalink: `${BASE}/files/F1`,
        shares:
          channels.length === 0
            ? {}
            : { public: Object.fromEntries(channels.map((c) => [c, [{ ts }]])) },
      },
    });
  const completions = (seen: Seen[]) =>
    paths(seen).filter((p) => p.endsWith('completeUploadExternal')).length;

  it('after a lost step-3 answer asks files.info, and a share listed there is delivered with its link, never sent again', async () => {
    const r = run([ticket(), text(200), lost(), info(['C1', 'C2'])]);
    expect(await r.result).toEqual({
      kind: 'delivered',
      file: { id: 'F1', permalink: `${BASE}/files/F1`, ts: '1700000000.000100' },
    });
    expect(paths(r.seen).slice(2)).toEqual([
      '/api/files.completeUploadExternal',
      '/api/files.info',
    ]);
  });

  /** A clock the attempt's sleeps move: what was waited, and when each files.info went. */
  function clocked() {
    let now = 1_000_000;
    const sleeps: number[] = [];
    return {
      sleeps,
      opts: {
        now: () => now,
        sleep: async (ms: number) => {
          sleeps.push(ms);
          now += ms;
        },
      },
    };
  }
  const notShared = (n: number) => Array.from({ length: n }, () => info([]));
  const ratelimited =
    (seconds: number): Answer =>
    () => ({
      status: 429,
      headers: { 'retry-after': String(seconds) },
      body: '{"ok":false,"error":"ratelimited"}',
    });

  it('a share listed late, on a later look of the window, is delivered and step 3 is never sent again', async () => {
    const c = clocked();
    const r = run([ticket(), text(200), lost(), ...notShared(3), info(['C1', 'C2'])], c.opts);
    expect(await r.result).toMatchObject({ kind: 'delivered', file: { ts: '1700000000.000100' } });
    expect(completions(r.seen)).toBe(1);
    // Looks at once, then 1, 3 and 7 s after the unclear answer.
    expect(c.sleeps).toEqual([1000, 2000, 4000]);
  });

  it('never sends step 3 again: a file not listed as shared within the window (six looks over 30 s) stays unknown', async () => {
    const c = clocked();
    const r = run([ticket(), text(200), lost(), ...notShared(6)], c.opts);
    const result = await r.result;
    expect(result).toMatchObject({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'idle_timeout' },
    });
    expect(result.kind === 'unknown' && result.reason.message).toMatch(
      /did not list it as shared within 30 s.*check the channel/,
    );
    expect(completions(r.seen)).toBe(1);
    expect(c.sleeps.reduce((x, y) => x + y, 0)).toBe(30_000);
  });

  it('the window is configurable', async () => {
    const c = clocked();
    const r = run([ticket(), text(200), lost(), ...notShared(6)], {
      ...c.opts,
      shareCheckWindowMs: 300,
    });
    expect((await r.result).kind).toBe('unknown');
    expect(c.sleeps).toEqual([10, 20, 40, 80, 150]);
  });

  it.each(['internal_error', 'fatal_error'])(
    '%s from step 3 is an unclear answer: files.info is asked, and a share listed there is delivered',
    async (code) => {
      const r = run([ticket(), text(200), json({ ok: false, error: code }), info(['C1', 'C2'])]);
      expect((await r.result).kind).toBe('delivered');
      expect(completions(r.seen)).toBe(1);
    },
  );

  it('a files.info 429 is waited out (its Retry-After) within the window, then asked again', async () => {
    const c = clocked();
    const r = run([ticket(), text(200), lost(), ratelimited(2), info(['C1', 'C2'])], c.opts);
    expect((await r.result).kind).toBe('delivered');
    expect(c.sleeps).toEqual([2000]);
  });

  it('a files.info 429 asking to wait past the window is not waited out: unknown', async () => {
    const c = clocked();
    const r = run(
      [ticket(), text(200), lost(), ...Array.from({ length: 6 }, () => ratelimited(3600))],
      c.opts,
    );
    const result = await r.result;
    expect(result.kind === 'unknown' && result.reason.message).toMatch(
      /files\.info\) gave no clear answer/,
    );
    expect(Math.max(...c.sleeps)).toBeLessThanOrEqual(30_000);
  });

  it('a 429 of the links look after a clear completion is waited out, and the link comes', async () => {
    const c = clocked();
    const r = run(
      [
        ticket(),
        text(200),
        json({ ok: true, files: [{ id: 'F1' }] }),
        ratelimited(5),
        info(['C1']),
      ],
      c.opts,
    );
    expect(await r.result).toMatchObject({
      kind: 'delivered',
      file: { permalink: `${BASE}/files/F1` },
    });
    expect(c.sleeps).toEqual([5000]);
  });

  it('a resumed share whose answer was lost, with a token that cannot read files: unknown, nothing sent again, and no "links need files:read … were shared" notice', async () => {
    let said = 0;
    const r = run([json({ ok: false, error: 'missing_scope', needed: 'files:read' })], {
      resume: checkpoint({ completing: true }),
      onLinksUnavailable: () => {
        said += 1;
      },
    });
    const result = await r.result;
    expect(result).toMatchObject({ kind: 'unknown', reason: { class: 'unknown-outcome' } });
    expect(result.kind === 'unknown' && result.reason.message).toMatch(/files:read/);
    expect(paths(r.seen)).toEqual(['/api/files.info']);
    expect(said).toBe(0);
  });

  it('stays unknown when files.info cannot answer, after one step-3 request', async () => {
    const r = run([
      ticket(),
      text(200),
      lost(),
      ...Array.from({ length: 6 }, () => text(500, 'oops')),
    ]);
    const result = await r.result;
    expect(result).toMatchObject({
      kind: 'unknown',
      reason: { class: 'unknown-outcome', code: 'idle_timeout' },
    });
    expect(result.kind === 'unknown' && result.reason.message).toMatch(/gave no clear answer/);
    expect(completions(r.seen)).toBe(1);
  });

  it("gets the link from files.info when the completion's answer has none, as Slack documents it", async () => {
    const r = run([
      ticket(),
      text(200),
      json({ ok: true, files: [{ id: 'F1', title: 'plan.txt' }] }),
      info(['C1', 'C2']),
    ]);
    expect(await r.result).toEqual({
      kind: 'delivered',
      file: { id: 'F1', title: 'plan.txt', permalink: `${BASE}/files/F1`, ts: '1700000000.000100' },
    });
  });

  it('a link that cannot be had leaves the file delivered, and says once that links need files:read', async () => {
    let said = 0;
    const r = run(
      [
        ticket(),
        text(200),
        json({ ok: true, files: [{ id: 'F1', title: 'plan.txt' }] }),
        json({ ok: false, error: 'missing_scope', needed: 'files:read', provided: 'files:write' }),
      ],
      {
        onLinksUnavailable: () => {
          said += 1;
        },
      },
    );
    expect(await r.result).toEqual({ kind: 'delivered', file: { id: 'F1', title: 'plan.txt' } });
    expect(said).toBe(1);
  });

  it('replies in a thread with channel_id and thread_ts, as both Slack SDKs send them', async () => {
    const r = run(
      [ticket(), text(200), shared],
      {},
      { channels: ['C1'], threadTs: '1700000000.123456' },
    );
    expect((await r.result).kind).toBe('delivered');
    const form = new URLSearchParams(r.seen[2]!.body.toString());
    expect(form.get('channel_id')).toBe('C1');
    expect(form.get('thread_ts')).toBe('1700000000.123456');
    expect(form.has('channels')).toBe(false);
  });

  it('keeps the checkpoint and retries later when step 3 is refused for now (503)', async () => {
    const r = run([ticket(), text(200), text(503, 'busy')]);
    expect(await r.result).toMatchObject({ kind: 'failed', reason: { class: 'transient' } });
    expect(r.checkpoints.at(-1)).toMatchObject({ fileId: 'F1', completing: false });
  });

  it('does not ask a changed base URL about a share whose answer was lost', async () => {
    const r = run([], {
      resume: checkpoint({ completing: true, baseUrl: 'http://127.0.0.1:7000' }),
    });
    expect(await r.result).toMatchObject({ kind: 'unknown', reason: { code: 'base_url_changed' } });
    expect(r.seen).toHaveLength(0);
  });

  it('reports a cancel after step 3 went out as "may have been delivered"', async () => {
    const controller = new AbortController();
    const r = run(
      [
        ticket(),
        text(200),
        () => {
          controller.abort();
          return new TransportError('aborted', 'The request was cancelled.');
        },
      ],
      { signal: controller.signal },
    );
    expect(await r.result).toMatchObject({
      kind: 'unknown',
      reason: { code: 'cancelled_after_send' },
    });
  });
});

describe('external protocol: checkpoints', () => {
  it('accepts only its own checkpoints', () => {
    expect(asExternalCheckpoint(null)).toBeUndefined();
    expect(asExternalCheckpoint({ fileId: 'F1' })).toBeUndefined();
    const cp = {
      protocol: 'external',
      baseUrl: BASE,
      fileId: 'F1',
      uploadedAt: 1,
      completing: false,
    };
    expect(asExternalCheckpoint({ ...cp, extra: 1 })).toEqual(cp);
  });
});
