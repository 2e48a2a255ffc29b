// Step 3 for several files at once (completeExternalShare, one message for a share's files), the
// part send-file.test.ts leaves to the end-to-end tests (found by mutation testing,
// docs/mutation.md). As in send-file.test.ts, a scripted transport answers each request where
// the test wants it; test/external/groups.test.ts runs the same code against the reference
// service. What a person would check: each file posted once, with its own link; the comment
// once; a refusal that shared nothing leaves the files to try again; a reason that never shows
// the token.
import { describe, expect, it } from 'vitest';
import type { UploadJob } from '../attempt';
import {
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from '../transport';
import { completeExternalShare } from './complete';
import type { ExternalCheckpoint } from './request';

const BASE = 'http://127.0.0.1:8000';
const TOKEN = 'xoxb-unit-token';
const UPLOADED_AT = Date.now();

interface Seen {
  path: string;
  form: URLSearchParams;
}

type Answer =
  | TransportResponse
  | TransportError
  | ((signal?: AbortSignal) => TransportError)
  /** Fails the request before its body is read (a cancel while it connects). */
  | { early: () => TransportError };

/** Answers requests in order, each body read to the end first, as a server would. */
function scripted(answers: Answer[], events: string[], info?: (id: string) => TransportResponse) {
  const seen: Seen[] = [];
  const transport: Transport = {
    async request(req: TransportRequest) {
      const first = answers[0];
      if (first && 'early' in first) {
        answers.shift();
        events.push('request cut before its body');
        throw first.early();
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req.body ?? []) chunks.push(Buffer.from(chunk));
      const path = new URL(req.url).pathname;
      seen.push({ path, form: new URLSearchParams(Buffer.concat(chunks).toString()) });
      events.push(`request ${path}`);
      const file = seen.at(-1)!.form.get('file');
      if (path === '/api/files.info' && info && file) return info(file);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected request to ${req.url}`);
      const out = typeof answer === 'function' ? answer(req.signal) : answer;
      if (out instanceof TransportError) throw out;
      if ('early' in out) throw new Error('an early failure must come first');
      return out;
    },
  };
  return { transport, seen };
}

const json = (value: unknown, status = 200): TransportResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
const lost = () => new TransportError('idle_timeout', 'The service went silent.');
// files.info's answer as Slack documents it: the shares under file.shares.public[channel][]
// (slack-api-ref methods/files/files.info.json, as share-check.ts reads it).
const shared = (channels: string[]) => (id: string) =>
  json({
    ok: true,
    file: {
      id,
      permalink: `${BASE}/files/${id}`,
      shares: { public: Object.fromEntries(channels.map((c) => [c, [{ ts: '1700000000.1' }]])) },
    },
  });

function job(name: string, over: Partial<UploadJob> = {}): UploadJob {
  return {
    baseUrl: BASE,
    token: TOKEN,
    channels: ['C1', 'C2'],
    comment: 'the plans',
    file: { path: `/nowhere/${name}`, name },
    ...over,
  };
}

const uploaded = (ids: string[]): ExternalCheckpoint[] =>
  ids.map((fileId) => ({
    protocol: 'external',
    baseUrl: BASE,
    fileId,
    uploadedAt: UPLOADED_AT,
    completing: false,
  }));

function share(
  answers: Answer[],
  opts: {
    withComment?: boolean;
    signal?: AbortSignal;
    jobs?: UploadJob[];
    info?: (id: string) => TransportResponse;
  } = {},
) {
  const events: string[] = [];
  const saves: (ExternalCheckpoint | null)[][] = [];
  const { transport, seen } = scripted(answers, events, opts.info);
  const jobs = opts.jobs ?? [job('a.txt'), job('b.txt'), job('c.txt')];
  const result = completeExternalShare(jobs, uploaded(['FA', 'FB', 'FC'].slice(0, jobs.length)), {
    transport,
    sleep: async () => {},
    shareCheckWindowMs: 0,
    saveAll: async (checkpoints) => {
      saves.push(checkpoints);
      events.push(
        `save ${checkpoints.map((c) => (c === null ? 'none' : c.completing ? 'completing' : 'uploaded')).join(' ')}`,
      );
    },
    beforeBodyComplete: () => {
      events.push('body complete');
    },
    ...(opts.withComment !== undefined ? { withComment: opts.withComment } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { result, seen, events, saves };
}

// files.completeUploadExternal's answer: ok and the completed files
// (https://docs.slack.dev/reference/methods/files.completeUploadExternal).
const completed = (files: object[]) => json({ ok: true, files });
/** Slack's answer with each file's link. */
const linked = (...ids: string[]) =>
  completed(ids.map((id) => ({ id, permalink: `${BASE}/files/${id}` })));

describe('several files shared as one message', () => {
  it('one completion with every file, the channels and the comment; each file gets its own link, matched by id', async () => {
    const r = share([
      // Slack answers in order; matching by id keeps each file's link its own regardless.
      completed([
        { id: 'FC', permalink: `${BASE}/files/FC` },
        { id: 'FA', permalink: `${BASE}/files/FA` },
        { id: 'FB', permalink: `${BASE}/files/FB` },
      ]),
    ]);
    expect(await r.result).toEqual([
      { kind: 'delivered', file: { id: 'FA', permalink: `${BASE}/files/FA` } },
      { kind: 'delivered', file: { id: 'FB', permalink: `${BASE}/files/FB` } },
      { kind: 'delivered', file: { id: 'FC', permalink: `${BASE}/files/FC` } },
    ]);
    expect(r.seen.map((s) => s.path)).toEqual(['/api/files.completeUploadExternal']);
    expect(Object.fromEntries(r.seen[0]!.form)).toEqual({
      files: JSON.stringify([
        { id: 'FA', title: 'a.txt' },
        { id: 'FB', title: 'b.txt' },
        { id: 'FC', title: 'c.txt' },
      ]),
      channels: 'C1,C2',
      initial_comment: 'the plans',
    });
    // "Completing" is journaled for the whole group just before the request's body goes.
    expect(r.events).toEqual([
      'save completing completing completing',
      'body complete',
      'request /api/files.completeUploadExternal',
    ]);
    expect(r.saves[0]).toEqual(
      uploaded(['FA', 'FB', 'FC']).map((cp) => ({ ...cp, completing: true, group: true })),
    );
  });

  it('an answer without ids: each file is matched by its place', async () => {
    const r = share([
      completed([
        { permalink: `${BASE}/files/1` },
        { permalink: `${BASE}/files/2` },
        { permalink: `${BASE}/files/3` },
      ]),
    ]);
    expect(await r.result).toEqual([
      { kind: 'delivered', file: { id: 'FA', permalink: `${BASE}/files/1` } },
      { kind: 'delivered', file: { id: 'FB', permalink: `${BASE}/files/2` } },
      { kind: 'delivered', file: { id: 'FC', permalink: `${BASE}/files/3` } },
    ]);
  });

  it('a later message of the share carries no comment', async () => {
    const r = share([linked('FA', 'FB', 'FC')], {
      withComment: false,
    });
    await r.result;
    expect(r.seen[0]!.form.has('initial_comment')).toBe(false);
  });

  it('a comment of spaces only is not sent', async () => {
    const jobs = [job('a.txt', { comment: '   ' }), job('b.txt')];
    const r = share([linked('FA', 'FB')], { jobs });
    await r.result;
    expect(r.seen[0]!.form.has('initial_comment')).toBe(false);
  });

  it('a reply in a thread to several channels still names every channel (the service then refuses the thread)', async () => {
    const jobs = [
      job('a.txt', { threadTs: '1700000000.123456' }),
      job('b.txt', { threadTs: '1700000000.123456' }),
    ];
    const r = share([linked('FA', 'FB')], { jobs });
    await r.result;
    expect(r.seen[0]!.form.get('channels')).toBe('C1,C2');
    expect(r.seen[0]!.form.get('thread_ts')).toBe('1700000000.123456');
    expect(r.seen[0]!.form.has('channel_id')).toBe(false);
  });

  it('an answer without its files: each file still delivered, its link from files.info', async () => {
    const r = share([json({ ok: true })], { info: shared(['C1', 'C2']) });
    expect(await r.result).toEqual(
      ['FA', 'FB', 'FC'].map((id) => ({
        kind: 'delivered',
        file: expect.objectContaining({ id, permalink: `${BASE}/files/${id}` }),
      })),
    );
  });

  it('a reply in a thread of one channel goes as channel_id and thread_ts', async () => {
    const jobs = [
      job('a.txt', { channels: ['C1'], threadTs: '1700000000.123456' }),
      job('b.txt', { channels: ['C1'], threadTs: '1700000000.123456' }),
    ];
    const r = share([linked('FA', 'FB')], { jobs });
    expect((await r.result).map((x) => x.kind)).toEqual(['delivered', 'delivered']);
    expect(r.seen[0]!.form.get('channel_id')).toBe('C1');
    expect(r.seen[0]!.form.get('thread_ts')).toBe('1700000000.123456');
    expect(r.seen[0]!.form.has('channels')).toBe(false);
  });
});

describe('a completion refused or unclear', () => {
  it('refused for now (503): nothing was shared; the files stay uploaded, not completing, to try again', async () => {
    const r = share([{ status: 503, headers: {}, body: 'busy' }]);
    const results = await r.result;
    expect(results.map((x) => x.kind)).toEqual(['failed', 'failed', 'failed']);
    expect(results[0]).toMatchObject({ reason: { class: 'transient', code: 'http_503' } });
    expect(r.events.at(-1)).toBe('save uploaded uploaded uploaded');
  });

  it('the bytes expired (file_not_found): every file starts over, nothing kept to resume', async () => {
    const r = share([json({ ok: false, error: 'file_not_found' })]);
    const results = await r.result;
    for (const x of results) {
      expect(x).toEqual({
        kind: 'failed',
        reason: {
          class: 'transient',
          code: 'file_not_found',
          message: expect.stringMatching(
            /^The service no longer holds the uploaded bytes \(file_not_found\): they expired before the file was shared\. /,
          ),
        },
      });
    }
    expect(r.events.at(-1)).toBe('save none none none');
  });

  it('a service that retired the protocol says so for every file', async () => {
    const r = share([json({ ok: false, error: 'unknown_method' })]);
    const results = await r.result;
    expect(results).toHaveLength(3);
    for (const x of results) {
      expect(x).toEqual({
        kind: 'failed',
        reason: {
          class: 'other',
          code: 'unknown_method',
          message:
            "This service does not offer Slack's external upload protocol (it answered unknown_method to files.completeUploadExternal). Switch the workspace to files.upload in Settings and send it again.",
        },
      });
    }
    expect(r.events.at(-1)).toBe('save uploaded uploaded uploaded');
  });

  it('a refusal that quotes the token: every file’s reason shows [token] instead', async () => {
    const r = share([json({ ok: false, error: `bad_token_${TOKEN}` })]);
    const results = await r.result;
    for (const x of results) {
      expect(JSON.stringify(x)).not.toContain(TOKEN);
      expect(x).toMatchObject({ kind: 'failed', reason: { code: 'bad_token_[token]' } });
    }
  });

  it('an answer lost after the whole request: files.info shows the message, so all are delivered, completed once', async () => {
    const on = shared(['C1', 'C2']);
    const r = share([lost()], { info: on });
    const results = await r.result;
    expect(results.map((x) => x.kind)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(results[1]).toMatchObject({ file: { id: 'FB', permalink: `${BASE}/files/FB` } });
    expect(r.seen.filter((s) => s.path.endsWith('completeUploadExternal'))).toHaveLength(1);
  });

  it('an answer lost and the message not seen: "may have been delivered" for the 3 files, never sent again', async () => {
    const none = shared([]);
    const r = share([lost()], { info: none });
    const results = await r.result;
    for (const x of results) {
      expect(x).toMatchObject({ kind: 'unknown', reason: { code: 'idle_timeout' } });
      expect((x as { reason: { message: string } }).reason.message).toMatch(
        /^Sharing 3 files got no usable answer \(idle_timeout\), and .* It was not sent again, so it cannot be posted twice\. It may have been delivered/,
      );
    }
    expect(r.seen.filter((s) => s.path.endsWith('completeUploadExternal'))).toHaveLength(1);
  });
});

describe('cancelled', () => {
  it('before anything went: every file cancelled, no request', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = share([], { signal: controller.signal });
    expect(await r.result).toEqual([
      { kind: 'cancelled' },
      { kind: 'cancelled' },
      { kind: 'cancelled' },
    ]);
    expect(r.seen).toEqual([]);
  });

  it('while the request connects, before its body: every file cancelled, still uploaded to go on later', async () => {
    const controller = new AbortController();
    const r = share(
      [
        {
          early: () => {
            controller.abort();
            return new TransportError('aborted', 'The request was cancelled.');
          },
        },
      ],
      { signal: controller.signal },
    );
    expect(await r.result).toEqual([
      { kind: 'cancelled' },
      { kind: 'cancelled' },
      { kind: 'cancelled' },
    ]);
    expect(r.events).toEqual(['request cut before its body', 'save uploaded uploaded uploaded']);
  });

  it('after the request went: "may have been delivered" for every file, never "cancelled"', async () => {
    const controller = new AbortController();
    const r = share(
      [
        () => {
          controller.abort();
          return new TransportError('aborted', 'The request was cancelled.');
        },
      ],
      { signal: controller.signal },
    );
    for (const x of await r.result) {
      expect(x).toMatchObject({ kind: 'unknown', reason: { code: 'cancelled_after_send' } });
    }
  });
});

describe('a group of one file', () => {
  it('an unclear outcome names the file, not "1 files"', async () => {
    const r = share([lost()], { jobs: [job('a.txt')], info: shared([]) });
    const [x] = await r.result;
    expect((x as { reason: { message: string } }).reason.message).toMatch(
      /^Sharing a\.txt got no usable answer \(idle_timeout\)/,
    );
  });
});

describe('a share that cannot be sent at all', () => {
  it('no channel: every file says why, and nothing is requested', async () => {
    const jobs = [job('a.txt', { channels: [] }), job('b.txt', { channels: [] })];
    const r = share([], { jobs });
    const results = await r.result;
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({ kind: 'failed' });
    expect(r.seen).toEqual([]);
  });
});
