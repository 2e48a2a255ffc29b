// Slack's current upload protocol, the second way to deliver one queued file:
//   1. files.getUploadURLExternal (filename, length)  → upload_url, file_id
//   2. POST the file's bytes to upload_url, streamed   → HTTP 200: received
//   3. files.completeUploadExternal (files, channels, initial_comment) → shared
// Only step 3 shares anything, so the question the engine asks of files.upload ("could the
// service have done it?") is asked of step 3 alone: steps 1 and 2 can always be tried again.
// Slack documents that step 3 completes an upload once, not what a repeat answers, so a step 3
// whose answer was lost is never simply sent again: files.info tells whether the files reached
// their channels (file-links.ts). Only when they clearly did not is step 3 sent again; when it
// cannot be told, the outcome stays unknown. The same question is asked when an item resumes at
// step 3 after a crash, instead of sending its bytes again.
import { apiUrl, isLoopbackHost } from '../../portable/credentials';
import type { FailureReason, ServiceFile } from '../model';
import { defaultSleep } from '../sleep';
import {
  type AttemptOptions,
  type AttemptResult,
  cancelledTooLate,
  checkJob,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  type RetryOptions,
  refused,
  retryTransient,
  type UploadJob,
  withoutToken,
} from './attempt';
import { classifyResponse, classifyTransportError, parseRetryAfter, serviceFile } from './classify';
import { MAY_BE_DELIVERED, printableCode } from './error-messages';
import { type FileInfo, readFileInfo, sharedVerdict, withLink } from './file-links';
import {
  assertUnchanged,
  ChunkRing,
  FileProblem,
  type OpenedFile,
  openForUpload,
  readFileChunks,
} from './file-source';
import { progressMeter } from './progress-meter';
import { TransportError, type TransportRequest, type TransportResponse } from './transport';

/** Where an attempt got to: the file's bytes are on the service, waiting for step 3. */
export interface ExternalCheckpoint {
  protocol: 'external';
  /** The service the file_id belongs to: a checkpoint for another base URL is not used. */
  baseUrl: string;
  fileId: string;
  /** When the service confirmed the bytes (epoch ms); it discards uploads not completed in time. */
  uploadedAt: number;
  /** A step 3 for this file_id may have reached the service: its outcome is not known. */
  completing: boolean;
  /**
   * The step 3 was one completion of several files (one message). Asking again for this file
   * alone could share it on its own, so a group cut off while completing stays unknown.
   */
  group?: boolean;
}

export interface ExternalAttemptOptions extends AttemptOptions {
  /** An earlier attempt's last checkpoint (anything that is not one is ignored). */
  resume?: unknown;
  /** Saves where this attempt got to, durably when the queue runs it; null: nothing to resume. */
  checkpoint?: (data: ExternalCheckpoint | null) => void | Promise<void>;
  /** How long the service keeps bytes never completed; an older checkpoint starts over. */
  uploadTtlMs?: number;
  /**
   * Step-3 requests at most in one attempt, each sent only after files.info showed the one
   * before it shared nothing. Default 3.
   */
  completeAttempts?: number;
  /**
   * The file completes together with the rest of its share (the queue groups them): once its
   * bytes are on the service and checkpointed, the attempt hands over and returns what the
   * share's completion gives this file.
   */
  awaitShare?: () => Promise<AttemptResult>;
  /**
   * The token cannot read files (files.info answered missing_scope): links are missing. Called
   * at most once per attempt; the caller says it once per workspace.
   */
  onLinksUnavailable?: () => void;
  /**
   * How long to wait before asking files.info a second time when a lost step 3 seems not to
   * have shared anything (Slack may list a share a moment late). Default 1000 ms.
   */
  shareCheckDelayMs?: number;
  /** Kept for callers that pass their retry policy; step 3 is never repeated on a timer. */
  retry?: RetryOptions['retry'];
  sleep?: RetryOptions['sleep'];
  now?: () => number;
}

/** Slack does not publish it; the reference service uses 10 minutes. Only an optimisation. */
export const DEFAULT_UPLOAD_TTL_MS = 10 * 60_000;
export const DEFAULT_COMPLETE_ATTEMPTS = 3;
export const DEFAULT_SHARE_CHECK_DELAY_MS = 1000;

const NOTHING_SHARED =
  'Nothing was shared: only the last step shares a file, so it is safe to try again.';

export function asExternalCheckpoint(value: unknown): ExternalCheckpoint | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<ExternalCheckpoint>;
  if (
    v.protocol !== 'external' ||
    typeof v.baseUrl !== 'string' ||
    typeof v.fileId !== 'string' ||
    v.fileId === '' ||
    typeof v.uploadedAt !== 'number' ||
    typeof v.completing !== 'boolean'
  ) {
    return undefined;
  }
  return {
    protocol: 'external',
    baseUrl: v.baseUrl,
    fileId: v.fileId,
    uploadedAt: v.uploadedAt,
    completing: v.completing,
    ...(v.group === true ? { group: true } : {}),
  };
}

function normalBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

interface Attempt {
  job: UploadJob;
  opts: ExternalAttemptOptions;
  token: string;
  base: string;
  channels: string[];
  name: string;
  now: () => number;
  save(cp: ExternalCheckpoint | null): Promise<void>;
  /** False for the later messages of a share: its comment goes with the first only. */
  withComment?: boolean;
}

type Sent =
  | { res: TransportResponse; bodyComplete: boolean }
  | { error: TransportError; bodyComplete: boolean };

/** One request; transport errors come back as values, anything else is thrown. */
async function send(
  a: Attempt,
  url: string,
  headers: Record<string, string>,
  body: AsyncIterable<Uint8Array>,
  contentLength: number,
  state: { bodyComplete: boolean },
  onBodyWritten?: TransportRequest['onBodyWritten'],
): Promise<Sent> {
  try {
    const res = await a.opts.transport.request({
      url,
      method: 'POST',
      headers,
      body,
      contentLength,
      ...(onBodyWritten ? { onBodyWritten } : {}),
      ...(a.opts.signal ? { signal: a.opts.signal } : {}),
      connectTimeoutMs: a.opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: a.opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    return { res, bodyComplete: state.bodyComplete };
  } catch (error) {
    if (error instanceof TransportError) return { error, bodyComplete: state.bodyComplete };
    throw error;
  }
}

function aborted(a: Attempt, sent?: Sent): boolean {
  return (
    a.opts.signal?.aborted === true ||
    (sent !== undefined && 'error' in sent && sent.error.code === 'aborted')
  );
}

/** A small form body, pulled in one piece; `before` runs first (the queue's journal point). */
function formBody(
  form: URLSearchParams,
  state: { bodyComplete: boolean },
  before?: () => void | Promise<void>,
): { body: AsyncIterable<Uint8Array>; length: number } {
  const bytes = Buffer.from(form.toString(), 'utf8');
  return {
    length: bytes.length,
    body: (async function* () {
      await before?.();
      state.bodyComplete = true;
      yield bytes;
    })(),
  };
}

function apiHeaders(a: Attempt): Record<string, string> {
  return {
    authorization: `Bearer ${a.token}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
}

function transient(code: string, message: string, retryAfterMs?: number): AttemptResult {
  return {
    kind: 'failed',
    reason: {
      class: 'transient',
      code,
      message,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    },
  };
}

function failed(reason: FailureReason): AttemptResult {
  return { kind: 'failed', reason };
}

/**
 * Steps 1 and 2 share nothing, so no outcome of theirs is "may have been delivered": an
 * answer that was lost or unreadable is a failure worth trying again.
 */
function beforeSharing(result: AttemptResult, step: string): AttemptResult {
  if (result.kind !== 'unknown') return result;
  return transient(
    result.reason.code,
    `No usable answer while ${step} (${result.reason.code}). ${NOTHING_SHARED}`,
  );
}

function transportFailure(error: TransportError, step: string): AttemptResult {
  // Retrying cannot fix a certificate.
  if (error.code === 'tls_error') {
    return failed({ class: 'other', code: error.code, message: error.message });
  }
  return transient(error.code, `While ${step}: ${error.message} ${NOTHING_SHARED}`);
}

function retiredHere(code: string, method: string): AttemptResult {
  return failed({
    class: 'other',
    code,
    message: `This service does not offer Slack's external upload protocol (it answered ${code} to ${method}). Switch the workspace to files.upload in Settings and send it again.`,
  });
}

function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// ---- step 1 ----

type Ticket = { uploadUrl: string; fileId: string };

async function getUploadUrl(a: Attempt, size: number): Promise<Ticket | AttemptResult> {
  const method = 'files.getUploadURLExternal';
  const step = 'asking the service where to upload the file';
  const url = apiUrl(a.base, method);
  const state = { bodyComplete: false };
  const form = formBody(new URLSearchParams({ filename: a.name, length: String(size) }), state);
  const sent = await send(a, url, apiHeaders(a), form.body, form.length, state);
  if (aborted(a, sent)) return { kind: 'cancelled' };
  if ('error' in sent) return transportFailure(sent.error, step);
  const result = classifyResponse(sent.res, { channels: a.channels, url, bodyComplete: true });
  if (result.kind === 'failed' && result.reason.class === 'retired') {
    return retiredHere(result.reason.code, method);
  }
  if (result.kind !== 'delivered') return beforeSharing(result, step);
  const answer = jsonObject(sent.res.body);
  const uploadUrl = answer?.upload_url;
  const fileId = answer?.file_id;
  if (typeof uploadUrl !== 'string' || typeof fileId !== 'string' || fileId === '') {
    return failed({
      class: 'other',
      code: 'invalid_answer',
      message: `The service accepted ${method} but gave no upload_url and file_id.`,
    });
  }
  return { uploadUrl, fileId };
}

// ---- step 2 ----

/**
 * The upload address comes from the service's answer, so it is checked like a base URL
 * (https, or http on this computer only). The token goes with the bytes only to the base URL's
 * own origin, which has it already: Slack's upload_url is another host and needs no token (the
 * address itself is the permission), and an address named by an answer must not be able to
 * collect the token.
 */
function checkUploadUrl(
  raw: string,
  base: string,
): { ok: true; url: string; sameOrigin: boolean } | { ok: false; result: AttemptResult } {
  const refusedUrl = {
    ok: false as const,
    result: failed({
      class: 'other',
      code: 'upload_url_refused',
      message:
        'The service gave an upload address Trayshare will not send files to (not https, or with a user name in it). Nothing was shared.',
    }),
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refusedUrl;
  }
  const secure =
    url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!secure || url.username !== '' || url.password !== '') return refusedUrl;
  return { ok: true, url: url.href, sameOrigin: url.origin === new URL(base).origin };
}

/** The upload address is no longer usable: get a new one. */
type Restart = { restart: FailureReason };

function bodySnippet(body: string): string {
  const text = body.trim();
  if (text === '' || text.startsWith('<')) return '';
  return `: ${printableCode(text.split(/\r?\n/)[0] ?? '')}`;
}

function classifyUpload(res: TransportResponse, a: Attempt): 'received' | Restart | AttemptResult {
  const status = res.status;
  if (status >= 200 && status < 300) return 'received';
  const step = 'sending the bytes';
  if (status >= 300 && status < 400) {
    // Never followed; the request URL is left out of the message (it is a secret address).
    return classifyResponse(res, { channels: a.channels, url: a.base, bodyComplete: true });
  }
  if (status === 404 || status === 409 || status === 410) {
    return {
      restart: {
        class: 'transient',
        code: `upload_url_${status}`,
        message: `The upload address is no longer valid (HTTP ${status}${bodySnippet(res.body)}): it expired or was used up. ${NOTHING_SHARED}`,
      },
    };
  }
  if (status === 413) {
    return failed({
      class: 'content',
      code: 'http_413',
      message: 'The file is larger than the service accepts (HTTP 413).',
    });
  }
  const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
  if (status === 429) {
    return transient(
      'ratelimited',
      `The service is limiting how fast uploads may be sent (HTTP 429 while ${step}). ${NOTHING_SHARED}`,
      retryAfterMs,
    );
  }
  if (status === 408 || status >= 500) {
    return transient(
      `http_${status}`,
      `The service answered HTTP ${status} while ${step}. ${NOTHING_SHARED}`,
      retryAfterMs,
    );
  }
  return failed({
    class: 'other',
    code: `http_${status}`,
    message: `The service refused the file's bytes (HTTP ${status}${bodySnippet(res.body)}). Nothing was shared.`,
  });
}

async function postBytes(
  a: Attempt,
  ticket: Ticket,
  opened: OpenedFile,
): Promise<'received' | Restart | AttemptResult> {
  const checked = checkUploadUrl(ticket.uploadUrl, a.base);
  if (!checked.ok) return checked.result;
  const meter = progressMeter(opened.size, a.opts.onProgress);
  const ring = new ChunkRing();
  const state = { bodyComplete: false };
  const name = a.name;
  const body = (async function* () {
    let sent = 0;
    for await (const chunk of readFileChunks(opened, name, ring, {
      blocking: a.opts.blockingReads === true,
    })) {
      sent += chunk.length;
      if (sent === opened.size) state.bodyComplete = true;
      yield chunk;
    }
  })();
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    accept: '*/*',
  };
  if (checked.sameOrigin) headers.authorization = `Bearer ${a.token}`;
  const sent = await send(a, checked.url, headers, body, opened.size, state, (bytes, chunk) => {
    meter.accepted(bytes);
    ring.release(chunk);
  }).finally(() => meter.stop());
  if (aborted(a, sent)) return { kind: 'cancelled' };
  if ('error' in sent) return transportFailure(sent.error, 'sending the bytes');
  return classifyUpload(sent.res, a);
}

/** Steps 1 and 2, with the file open throughout: the file_id of bytes the service holds. */
async function uploadBytes(a: Attempt): Promise<{ fileId: string } | Restart | AttemptResult> {
  let opened: OpenedFile;
  try {
    opened = await openForUpload({ ...a.job.file, name: a.name });
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    throw error;
  }
  try {
    if (opened.size === 0) {
      return refused(
        'empty_file',
        `${a.name} is empty: Slack's external upload protocol cannot send an empty file.`,
      );
    }
    const ticket = await getUploadUrl(a, opened.size);
    if ('kind' in ticket) return ticket;
    const posted = await postBytes(a, ticket, opened);
    if (posted !== 'received') return posted;
    // What the service holds must be the file that was queued: it is shared only after this.
    await assertUnchanged(opened, a.name);
    return { fileId: ticket.fileId };
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    throw error;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

// ---- step 3 ----

function sharedFile(body: string, fileId: string): ServiceFile {
  const files = jsonObject(body)?.files;
  return { id: fileId, ...serviceFile(Array.isArray(files) ? files[0] : undefined) };
}

/** Each file of a completion of several, matched by id (Slack answers them in order). */
function sharedFiles(body: string, ids: readonly string[]): ServiceFile[] {
  const files = jsonObject(body)?.files;
  const list: unknown[] = Array.isArray(files) ? files : [];
  return ids.map((id, i) => {
    const match = list.find((f) => (f as { id?: unknown } | null)?.id === id) ?? list[i];
    return { id, ...serviceFile(match) };
  });
}

type Completed = { startOver: FailureReason } | AttemptResult;

function unknownAfterCompleting(code: string, message: string): AttemptResult {
  return { kind: 'unknown', reason: { class: 'unknown-outcome', code, message } };
}

/** One files.info request; any failure to get an answer is "unreadable", never thrown. */
async function askFileInfo(a: Attempt, fileId: string): Promise<FileInfo> {
  const url = apiUrl(a.base, 'files.info');
  const state = { bodyComplete: false };
  const form = formBody(new URLSearchParams({ file: fileId }), state);
  const sent = await send(a, url, apiHeaders(a), form.body, form.length, state);
  if ('error' in sent) return { kind: 'unreadable', code: sent.error.code };
  return readFileInfo(sent.res);
}

/** files.info for each file, in order; stops asking once the token proves unable to read files. */
async function askAll(a: Attempt, ids: readonly string[]): Promise<FileInfo[]> {
  const infos: FileInfo[] = [];
  for (const id of ids) {
    const info = await askFileInfo(a, id);
    infos.push(info);
    if (info.kind === 'no-scope') break;
  }
  if (infos.some((i) => i.kind === 'no-scope')) a.opts.onLinksUnavailable?.();
  return infos;
}

/**
 * The files were shared: each gets its permalink and message ts from files.info when the
 * completion's answer had none (Slack's documented answer has none). A link that cannot be had
 * leaves the file delivered without one.
 */
async function withLinks(
  a: Attempt,
  files: ServiceFile[],
  known?: readonly FileInfo[],
): Promise<ServiceFile[]> {
  if (a.opts.signal?.aborted) return files;
  const missing = files.filter((f) => !f.permalink && f.id);
  if (missing.length === 0) return files;
  const infos =
    known ??
    (await askAll(
      a,
      missing.map((f) => f.id!),
    ));
  const byId = new Map<string, FileInfo>();
  const ids = known ? files.map((f) => f.id) : missing.map((f) => f.id);
  for (const [i, info] of infos.entries()) {
    const id = ids[i];
    if (id) byId.set(id, info);
  }
  return files.map((f) => {
    const info = f.id ? byId.get(f.id) : undefined;
    return info ? withLink(f, info, a.channels) : f;
  });
}

type Verdict =
  | { kind: 'shared'; infos: FileInfo[] }
  | { kind: 'not-shared' }
  | { kind: 'unclear'; infos?: FileInfo[] };

/**
 * After a step 3 whose answer was lost: did it share the files? Asked of files.info's
 * `shares`. "Not shared" must hold twice, a moment apart, since a share may be listed late:
 * sending step 3 again on a wrong "not shared" would post the files twice.
 */
async function wereShared(a: Attempt, ids: readonly string[]): Promise<Verdict> {
  const sleep = a.opts.sleep ?? defaultSleep;
  for (let look = 1; ; look++) {
    const infos = await askAll(a, ids);
    const verdict = infos.length === ids.length ? sharedVerdict(infos, a.channels) : 'unclear';
    if (verdict === 'shared') return { kind: 'shared', infos };
    if (verdict === 'unclear') return { kind: 'unclear', infos };
    if (look === 2) return { kind: 'not-shared' };
    try {
      await sleep(a.opts.shareCheckDelayMs ?? DEFAULT_SHARE_CHECK_DELAY_MS, a.opts.signal);
    } catch (error) {
      if (a.opts.signal?.aborted) return { kind: 'unclear' };
      throw error;
    }
  }
}

function whyUnclear(infos: readonly FileInfo[] | undefined): string {
  if (infos?.some((i) => i.kind === 'no-scope')) {
    return 'the token lacks the files:read scope, so Trayshare cannot ask whether it was shared';
  }
  return 'asking the service whether it was shared (files.info) gave no clear answer';
}

/**
 * Step 3. `group` shares several files, whose bytes are on the service, as one message: the
 * request, its answer and its unknown outcome are the whole group's.
 */
async function complete(
  a: Attempt,
  start: ExternalCheckpoint,
  group?: readonly { id: string; title: string }[],
): Promise<Completed & { files?: ServiceFile[] }> {
  const method = 'files.completeUploadExternal';
  const url = apiUrl(a.base, method);
  const ids = group ? group.map((g) => g.id) : [start.fileId];
  const form = new URLSearchParams();
  form.set('files', JSON.stringify(group ?? [{ id: start.fileId, title: a.name }]));
  if (a.job.threadTs && a.channels.length === 1) {
    // A reply goes as channel_id + thread_ts, as both Slack SDKs send it (node-slack-sdk
    // packages/web-api/src/file-upload.ts getAllFileUploadsToComplete; python-slack-sdk
    // files_completeUploadExternal).
    form.set('channel_id', a.channels[0]!);
  } else {
    form.set('channels', a.channels.join(','));
  }
  // With several channels the service refuses the thread, which says more than dropping it.
  if (a.job.threadTs) form.set('thread_ts', a.job.threadTs);
  if (a.withComment !== false && a.job.comment && a.job.comment.trim() !== '') {
    form.set('initial_comment', a.job.comment);
  }

  const delivered = async (files: ServiceFile[], known?: FileInfo[]) => {
    const linked = await withLinks(a, files, known);
    return {
      kind: 'delivered' as const,
      file: linked[0] ?? { id: start.fileId },
      ...(group ? { files: linked } : {}),
    };
  };

  // True once a request of ours may have completed these files without our hearing the answer.
  let mayBeDone = start.completing;
  // True once files.info said "not shared" and step 3 went again: a refusal now may mean the
  // earlier request did share them after all.
  let askedAgain = false;
  const cp: ExternalCheckpoint = { ...start, completing: true };
  // Journaled just before the request's body goes: a crash before that point certainly sent
  // nothing, and the file goes on at step 3 without asking first.
  let completingSaved = start.completing;
  const notCompleting = () => a.save({ ...cp, completing: false });

  const most = Math.max(1, Math.floor(a.opts.completeAttempts ?? DEFAULT_COMPLETE_ATTEMPTS));
  let hooked = false;
  let last: FailureReason | undefined;
  for (let n = 1; ; n++) {
    if (mayBeDone) {
      const seen = await wereShared(a, ids);
      if (a.opts.signal?.aborted) return cancelledTooLate();
      if (seen.kind === 'shared') {
        return delivered(
          ids.map((id) => ({ id })),
          seen.infos,
        );
      }
      if (seen.kind === 'unclear' || n > most) {
        const why =
          seen.kind === 'unclear'
            ? whyUnclear(seen.infos)
            : `files.info still lists it as not shared after ${most} requests`;
        return unknownAfterCompleting(
          last?.code ?? 'interrupted_completing',
          `Sharing ${a.name} got no usable answer${last ? ` (${last.code})` : ''}, and ${why}. It was not sent again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
        );
      }
      // Clearly not shared: the lost request did nothing, so sending it again is safe.
      mayBeDone = false;
      askedAgain = true;
    }
    const state = { bodyComplete: false };
    const body = formBody(form, state, async () => {
      if (!completingSaved) await a.save(cp);
      completingSaved = true;
      if (hooked) return;
      await a.opts.beforeBodyComplete?.();
      hooked = true;
    });
    const sent = await send(a, url, apiHeaders(a), body.body, body.length, state);
    const ctx = { channels: a.channels, url, bodyComplete: sent.bodyComplete };
    const result =
      'error' in sent ? classifyTransportError(sent.error, ctx) : classifyResponse(sent.res, ctx);
    if (aborted(a, sent) || result.kind === 'cancelled') {
      if (askedAgain || sent.bodyComplete) return cancelledTooLate();
      await notCompleting();
      return { kind: 'cancelled' };
    }
    if (result.kind === 'delivered') {
      const answer = 'res' in sent ? sent.res.body : '';
      return delivered(group ? sharedFiles(answer, ids) : [sharedFile(answer, cp.fileId)]);
    }
    if (result.kind === 'unknown') {
      // Asked of files.info at the top of the loop, never simply sent again.
      mayBeDone = true;
      last = result.reason;
      continue;
    }
    if (askedAgain && result.reason.class !== 'transient') {
      // files.info said "not shared", yet the service refuses now (file_not_found, say): the
      // earlier request may have shared it after all. A refusal is never read as "done".
      return unknownAfterCompleting(
        result.reason.code,
        `An earlier request sharing ${a.name} got no answer${last ? ` (${last.code})` : ''}; the service then listed it as not shared, but refused to share it now: ${result.reason.message} ${MAY_BE_DELIVERED}`,
      );
    }
    if (result.reason.code === 'file_not_found') {
      // A definite answer to the only request: the service no longer holds the bytes.
      return {
        startOver: {
          class: 'transient',
          code: 'file_not_found',
          message: `The service no longer holds the uploaded bytes (file_not_found): they expired before the file was shared. ${NOTHING_SHARED}`,
        },
      };
    }
    // A definite answer: this request shared nothing (and any earlier one was seen not to).
    await notCompleting();
    if (result.reason.class === 'retired') return retiredHere(result.reason.code, method);
    return result;
  }
}

// ---- the attempt ----

export async function uploadExternal(
  job: UploadJob,
  opts: ExternalAttemptOptions,
): Promise<AttemptResult> {
  return withoutToken(await attempt(job, opts), job.token.trim());
}

async function attempt(job: UploadJob, opts: ExternalAttemptOptions): Promise<AttemptResult> {
  if (opts.signal?.aborted) return { kind: 'cancelled' };
  const checked = checkJob(job);
  if (!checked.ok) return checked.result;
  const a: Attempt = {
    job,
    opts,
    token: job.token.trim(),
    base: normalBase(job.baseUrl),
    channels: checked.channels,
    name: job.file.name.trim() === '' ? 'file' : job.file.name,
    now: opts.now ?? Date.now,
    save: async (cp) => {
      await opts.checkpoint?.(cp);
    },
  };

  const resumed = fromCheckpoint(a, opts.resume);
  if ('kind' in resumed) return resumed;
  let cp = resumed.cp;
  if (opts.resume !== undefined && opts.resume !== null && !cp) await a.save(null);
  let restarted = false;
  for (;;) {
    if (!cp) {
      const uploaded = await uploadBytes(a);
      if ('restart' in uploaded) {
        if (restarted) return failed(uploaded.restart);
        restarted = true;
        continue;
      }
      if ('kind' in uploaded) return uploaded;
      cp = {
        protocol: 'external',
        baseUrl: a.base,
        fileId: uploaded.fileId,
        uploadedAt: a.now(),
        completing: false,
      };
      await a.save(cp);
    } else if (job.file.expectedSize !== undefined) {
      // Resumed: the bytes went in an earlier attempt.
      opts.onProgress?.(job.file.expectedSize, job.file.expectedSize);
    }
    if (cp.completing && cp.group) {
      // Cut off while its share's message was being sent: asking again for this file alone
      // could post it on its own, so only files.info can settle it.
      const settled = await settleGroupFile(a, cp);
      if ('kind' in settled) return settled;
      cp = settled.cp;
    }
    if (opts.awaitShare && !cp.completing) return opts.awaitShare();
    const done = await complete(a, cp);
    if (!('startOver' in done)) return done;
    cp = undefined;
    await a.save(null);
    if (restarted) return failed(done.startOver);
    restarted = true;
  }
}

/**
 * A file whose group completion was cut off: shared (delivered, with its link), clearly not
 * shared (it goes back to its share, which completes again as one message), or unknown.
 */
async function settleGroupFile(
  a: Attempt,
  cp: ExternalCheckpoint,
): Promise<{ cp: ExternalCheckpoint } | AttemptResult> {
  const seen = await wereShared(a, [cp.fileId]);
  if (seen.kind === 'shared') {
    const [file] = await withLinks(a, [{ id: cp.fileId }], seen.infos);
    return { kind: 'delivered', file: file ?? { id: cp.fileId } };
  }
  if (seen.kind === 'unclear') {
    return unknownAfterCompleting(
      'interrupted_completing_group',
      `Trayshare stopped while sharing ${a.name} together with other files of its share, before the service answered, and ${whyUnclear(seen.infos)}: that message may have been posted. It is not completed again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
    );
  }
  const back: ExternalCheckpoint = { ...cp, completing: false };
  delete back.group;
  await a.save(back);
  return { cp: back };
}

/**
 * Where to go on from. A checkpoint for another service, or one whose bytes are likely
 * discarded by now, starts over; unless a step 3 may have gone out: then only asking that
 * service can tell, and if it can no longer be asked, the outcome stays unknown.
 */
function fromCheckpoint(
  a: Attempt,
  resume: unknown,
): { cp: ExternalCheckpoint | undefined } | AttemptResult {
  const cp = asExternalCheckpoint(resume);
  if (!cp) return { cp: undefined };
  if (cp.baseUrl !== a.base) {
    if (!cp.completing) return { cp: undefined };
    return unknownAfterCompleting(
      'base_url_changed',
      `An earlier request sharing ${a.name} got no answer, and the workspace's base URL has changed since, so Trayshare cannot ask the service whether it was shared. ${MAY_BE_DELIVERED}`,
    );
  }
  if (cp.completing) return { cp };
  const age = a.now() - cp.uploadedAt;
  if (age < 0 || age > (a.opts.uploadTtlMs ?? DEFAULT_UPLOAD_TTL_MS)) return { cp: undefined };
  return { cp };
}

/** At most this many files per completion (the contract's bound): one message each. */
export const MAX_FILES_PER_MESSAGE = 10;

export type GroupFileResult = AttemptResult;

/**
 * For scripts: a share of several files as one message per group of at most 10. Steps 1 and 2
 * go per file (transient failures tried again); then one completion per group with the one
 * comment. A file whose bytes could not be sent fails alone; a completion whose answer is lost
 * leaves the whole group "may have been delivered", and it is never completed again.
 */
export async function uploadExternalGroup(
  jobs: readonly UploadJob[],
  opts: ExternalAttemptOptions & RetryOptions & { onFile?: (index: number) => void },
): Promise<AttemptResult[]> {
  const results: AttemptResult[] = new Array(jobs.length);
  const uploaded: { index: number; fileId: string; uploadedAt: number }[] = [];
  for (const [index, job] of jobs.entries()) {
    opts.onFile?.(index);
    let fileId: string | undefined;
    let uploadedAt = 0;
    const result = await retryTransient(async () => {
      const a = attemptOf(job, opts);
      if ('kind' in a) return a;
      let restarted = false;
      for (;;) {
        const bytes = await uploadBytes(a);
        if ('restart' in bytes) {
          if (restarted) return failed(bytes.restart);
          restarted = true;
          continue;
        }
        if ('kind' in bytes) return bytes;
        fileId = bytes.fileId;
        uploadedAt = a.now();
        return { kind: 'delivered', file: { id: bytes.fileId } } as AttemptResult;
      }
    }, opts);
    if (result.kind !== 'delivered' || fileId === undefined) results[index] = result;
    else uploaded.push({ index, fileId, uploadedAt });
  }
  // The share's comment goes with its first message only: once a group was (or may have been)
  // posted, the later groups go without it.
  let commented = false;
  for (let start = 0; start < uploaded.length; start += MAX_FILES_PER_MESSAGE) {
    const members = uploaded.slice(start, start + MAX_FILES_PER_MESSAGE);
    let outcomes: AttemptResult[] = [];
    await retryTransient(async () => {
      outcomes = await completeExternalShare(
        members.map((m) => jobs[m.index]!),
        members.map((m) => ({
          protocol: 'external',
          baseUrl: normalBase(jobs[m.index]!.baseUrl),
          fileId: m.fileId,
          uploadedAt: m.uploadedAt,
          completing: false,
        })),
        { ...opts, withComment: !commented },
      );
      return outcomes[0]!;
    }, opts);
    for (const [i, m] of members.entries()) results[m.index] = outcomes[i]!;
    if (outcomes.some((o) => o.kind === 'delivered' || o.kind === 'unknown')) commented = true;
  }
  return results;
}

/**
 * Step 3 for several files whose bytes are on the service: one completion, one message, the
 * first job's comment and thread. Its answer, or its unknown outcome, is every file's.
 * `saveAll` journals the files' checkpoints together (marked `group`) before the request goes,
 * and again when it certainly was not carried out. Callers make groups of at most
 * MAX_FILES_PER_MESSAGE.
 */
export async function completeExternalShare(
  jobs: readonly UploadJob[],
  uploaded: readonly ExternalCheckpoint[],
  opts: ExternalAttemptOptions & {
    saveAll?: (checkpoints: (ExternalCheckpoint | null)[]) => Promise<void>;
    /** False for a later message of a share whose first message carried the comment. */
    withComment?: boolean;
  },
): Promise<AttemptResult[]> {
  const everyone = (result: AttemptResult) => jobs.map(() => result);
  if (opts.signal?.aborted) return everyone({ kind: 'cancelled' });
  const first = attemptOf(jobs[0]!, opts);
  if ('kind' in first) return everyone(first);
  const group = uploaded.map((cp, i) => ({ id: cp.fileId, title: nameOf(jobs[i]!) }));
  const saveAll = async (completing: boolean | null) => {
    await opts.saveAll?.(
      uploaded.map((u) => (completing === null ? null : { ...u, completing, group: true })),
    );
  };
  // "Completing" is journaled just before the request's body goes (not when the request is
  // only about to be made): a crash before that point certainly sent nothing, and the group
  // goes on at step 3 instead of being left unknown.
  let completingSaved = false;
  const a: Attempt = {
    ...first,
    opts: {
      ...first.opts,
      beforeBodyComplete: async () => {
        if (!completingSaved) await saveAll(true);
        completingSaved = true;
        await opts.beforeBodyComplete?.();
      },
    },
    name: jobs.length === 1 ? first.name : `${jobs.length} files`,
    withComment: opts.withComment !== false,
    save: async (cp) => {
      if (cp?.completing) return;
      completingSaved = false;
      await saveAll(cp === null ? null : false);
    },
  };
  const done = await complete(a, { ...uploaded[0]!, completing: false }, group);
  if ('startOver' in done) {
    await a.save(null);
    return everyone(failed(done.startOver));
  }
  if (done.kind !== 'delivered') return everyone(withoutToken(done, a.token));
  return uploaded.map((u, i) => ({
    kind: 'delivered',
    file: done.files?.[i] ?? { id: u.fileId },
  }));
}

function nameOf(job: UploadJob): string {
  return job.file.name.trim() === '' ? 'file' : job.file.name;
}

function attemptOf(job: UploadJob, opts: ExternalAttemptOptions): Attempt | AttemptResult {
  const checked = checkJob(job);
  if (!checked.ok) return checked.result;
  return {
    job,
    opts,
    token: job.token.trim(),
    base: normalBase(job.baseUrl),
    channels: checked.channels,
    name: nameOf(job),
    now: opts.now ?? Date.now,
    save: async () => {},
  };
}

/** For scripts: transient failures are tried again, going on from the last checkpoint. */
export async function uploadExternalWithRetries(
  job: UploadJob,
  opts: ExternalAttemptOptions & RetryOptions,
): Promise<AttemptResult> {
  let resume: unknown = opts.resume;
  return retryTransient(
    () =>
      uploadExternal(job, {
        ...opts,
        resume,
        checkpoint: async (data) => {
          resume = data;
          await opts.checkpoint?.(data);
        },
      }),
    opts,
  );
}
