// Steps 1 and 2 of the external protocol: ask where to upload, then stream the file's bytes
// there. Neither shares anything, so every failure here is safe to try again.

import { stat } from 'node:fs/promises';
import { apiUrl, isLoopbackHost } from '../../../portable/credentials';
import type { FailureReason } from '../../model';
import { type AttemptResult, refused, type UploadJob } from '../attempt';
import { classifyResponse, parseRetryAfter } from '../classify';
import { printableCode } from '../error-messages';
import {
  assertUnchanged,
  ChunkRing,
  FileProblem,
  type OpenedFile,
  openForUpload,
  readFileChunks,
} from '../file-source';
import { progressMeter } from '../progress-meter';
import type { TransportResponse } from '../transport';
import {
  type Attempt,
  aborted,
  apiHeaders,
  attemptOf,
  beforeSharing,
  DEFAULT_UPLOAD_TTL_MS,
  type ExternalAttemptOptions,
  failed,
  formBody,
  jsonObject,
  NOTHING_SHARED,
  retiredHere,
  send,
  transient,
  transportFailure,
  type UploadTicket,
} from './request';

// ---- step 1 ----

async function getUploadUrl(a: Attempt, size: number): Promise<UploadTicket | AttemptResult> {
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
  return {
    uploadUrl,
    fileId,
    name: a.name,
    length: size,
    base: a.base,
    token: a.token,
    at: a.now(),
  };
}

/** Step 1, through the share's gate when it has one. */
function askUploadUrl(a: Attempt, size: number): Promise<UploadTicket | AttemptResult> {
  const ask = () => getUploadUrl(a, size);
  return a.opts.stepOneGate ? a.opts.stepOneGate(ask) : ask();
}

/**
 * Step 1 for a file still waiting for a byte slot, on the size it has now (the queue: the size
 * it was queued with). Undefined when there is nothing to ask for (no such file, an empty one,
 * a job that cannot go): its attempt finds out and says why.
 */
export async function askAhead(
  job: UploadJob,
  opts: ExternalAttemptOptions,
): Promise<UploadTicket | AttemptResult | undefined> {
  const a = attemptOf(job, opts);
  if ('kind' in a) return undefined;
  let size = job.file.expectedSize;
  if (size === undefined) {
    try {
      const st = await stat(job.file.path);
      if (!st.isFile()) return undefined;
      size = st.size;
    } catch {
      return undefined;
    }
  }
  if (size === 0) return undefined;
  const asked = await askUploadUrl(a, size);
  // Stopped (the queue closing, the person's cancel): nothing to hand on.
  return 'kind' in asked && asked.kind === 'cancelled' ? undefined : asked;
}

/**
 * An address asked for ahead is used only for what it was asked for, and only while at least
 * half of the service's upload TTL is left for the bytes (Slack does not publish its TTL; see
 * DEFAULT_UPLOAD_TTL_MS). An older one is asked for again: a file that waited long for its slot
 * gets a fresh address instead of failing.
 */
function usable(t: UploadTicket, a: Attempt, size: number): boolean {
  const maxAge = (a.opts.uploadTtlMs ?? DEFAULT_UPLOAD_TTL_MS) / 2;
  const age = a.now() - t.at;
  return (
    t.base === a.base &&
    t.token === a.token &&
    t.name === a.name &&
    t.length === size &&
    age >= 0 &&
    age <= maxAge
  );
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
export type Restart = { restart: FailureReason };

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
  ticket: UploadTicket,
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
export async function uploadBytes(
  a: Attempt,
): Promise<{ fileId: string } | Restart | AttemptResult> {
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
    // What was asked for ahead counts as this try's step 1, refusals included, so a file is
    // never asked for twice where once was asked before.
    const ahead = await a.opts.uploadTicket?.();
    if (ahead !== undefined && 'kind' in ahead) return ahead;
    const ticket =
      ahead !== undefined && usable(ahead, a, opened.size)
        ? ahead
        : await askUploadUrl(a, opened.size);
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
