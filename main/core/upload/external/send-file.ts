// Slack's current upload protocol, the second way to deliver one queued file:
//   1. files.getUploadURLExternal (filename, length)  → upload_url, file_id
//   2. POST the file's bytes to upload_url, streamed   → HTTP 200: received
//   3. files.completeUploadExternal (files, channels, initial_comment) → shared
// Only step 3 shares anything, so the question the engine asks of files.upload ("could the
// service have done it?") is asked of step 3 alone: steps 1 and 2 can always be tried again.
// Slack documents that step 3 completes an upload once, not what a repeat answers, so a step 3
// whose answer was lost is never sent again: files.info tells, over a bounded window, whether
// the files reached their channels (share-check.ts); when it does not, the outcome stays
// unknown. The same question is asked when an item resumes at step 3 after a crash, instead of
// sending its bytes again.
// This file is one queued file's attempt: steps 1 and 2 here, with the rules for going on from
// a checkpoint; step 3 is complete.ts (with files.info after it); both go over request.ts.
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { apiUrl, isLoopbackHost } from '../../../portable/credentials';
import type { FailureReason } from '../../model';
import { type AttemptResult, checkedAttempt, refused, type UploadJob } from '../attempt';
import { classifyResponse, parseRetryAfter } from '../classify';
import { MAY_BE_DELIVERED, printableCode } from '../error-messages';
import {
  assertUnchanged,
  ChunkRing,
  FileProblem,
  type OpenedFile,
  openForUpload,
  readFileChunks,
} from '../file-source';
import { learnUploadHost } from '../preconnect';
import { progressMeter } from '../progress-meter';
import type { TransportResponse } from '../transport';
import { complete } from './complete';
import {
  type Attempt,
  aborted,
  apiHeaders,
  asExternalCheckpoint,
  attemptOf,
  beforeSharing,
  DEFAULT_UPLOAD_TTL_MS,
  type ExternalAttemptOptions,
  type ExternalCheckpoint,
  failed,
  formBody,
  jsonObject,
  NOTHING_SHARED,
  normalBase,
  retiredHere,
  send,
  transient,
  transportFailure,
  type UploadTicket,
  unknownAfterCompleting,
} from './request';
import { lookForShares, whyUnclear, withLinks } from './share-check';

// ---- one file's attempt ----

export async function uploadExternal(
  job: UploadJob,
  opts: ExternalAttemptOptions,
): Promise<AttemptResult> {
  return checkedAttempt(job, opts.signal, (channels) => attempt(job, opts, channels));
}

async function attempt(
  job: UploadJob,
  opts: ExternalAttemptOptions,
  channels: string[],
): Promise<AttemptResult> {
  const a: Attempt = {
    job,
    opts,
    token: job.token.trim(),
    base: normalBase(job.baseUrl),
    channels,
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
    // Cut off while its share's message was being sent: only files.info can settle it.
    if (cp.completing && cp.group) return settleGroupFile(a, cp);
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
 * A file whose group completion was cut off: shared (delivered, with its link) or unknown.
 * Asking again for this file alone could post it on its own, so it is never completed again.
 */
async function settleGroupFile(a: Attempt, cp: ExternalCheckpoint): Promise<AttemptResult> {
  const seen = await lookForShares(a, [cp.fileId]);
  if (seen.kind === 'shared') {
    const [file] = await withLinks(a, [{ id: cp.fileId }], seen.infos);
    return { kind: 'delivered', file: file ?? { id: cp.fileId } };
  }
  return unknownAfterCompleting(
    'interrupted_completing_group',
    `Trayshare stopped while sharing ${a.name} together with other files of its share, before the service answered, and ${whyUnclear(a, seen.infos)}: that message may have been posted. It is not completed again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
  );
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
  // A file sent without its hidden details is asked for at the length that is sent.
  if (job.file.strip && job.file.strip.size === undefined) return undefined;
  let size = job.file.strip?.size ?? job.file.expectedSize;
  if (size === undefined) {
    try {
      // blockingReads: this process only uploads, and a stat on the main thread is microseconds
      // where the thread pool's hop waits behind the other files' reads (bench/notes.md).
      const st = opts.blockingReads ? statSync(job.file.path) : await stat(job.file.path);
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
  const outcome = classifyUpload(sent.res, a);
  // Only a host that took the bytes is learnt, so the next share's connections open ahead to
  // where uploads do go (preconnect.ts), never to a host that refused or failed them.
  if (outcome === 'received') learnUploadHost(a.base, checked.url);
  return outcome;
}

/** Steps 1 and 2, with the file open throughout: the file_id of bytes the service holds. */
export async function uploadBytes(
  a: Attempt,
): Promise<{ fileId: string } | Restart | AttemptResult> {
  let opened: OpenedFile;
  try {
    opened = await openForUpload(
      { ...a.job.file, name: a.name },
      { blocking: a.opts.blockingReads === true },
    );
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
    await assertUnchanged(opened, a.name, { blocking: a.opts.blockingReads === true });
    return { fileId: ticket.fileId };
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    throw error;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
