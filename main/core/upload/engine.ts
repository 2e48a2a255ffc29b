// One upload = one files.upload request: refused before any byte when it cannot be right,
// otherwise streamed from disk and classified. The engine owns the body, so it alone knows
// whether the service could have received all of it: that decides "retry" vs "may have been
// delivered" when no answer comes.
import { setTimeout as delay } from 'node:timers/promises';
import type { FailureReason, ServiceFile } from '../model';
import { normaliseChannels } from './channels';
import { classifyResponse, classifyTransportError } from './classify';
import { apiUrl, checkBaseUrl, checkToken } from './credentials';
import { MAY_BE_DELIVERED } from './error-messages';
import {
  assertUnchanged,
  ChunkRing,
  FileProblem,
  type OpenedFile,
  openForUpload,
  readFileChunks,
} from './file-source';
import { layoutMultipart, multipartBody } from './multipart';
import { type RetryPolicy, retryDelayMs, retryPolicy } from './retry';
import { type Transport, TransportError } from './transport';

export interface UploadJob {
  baseUrl: string;
  token: string;
  channels: string[];
  comment?: string;
  /** Reply in this thread (the parent message's ts); the job then has exactly one channel. */
  threadTs?: string;
  file: { path: string; name: string; expectedSize?: number; expectedMtimeMs?: number };
}

export interface AttemptOptions {
  transport: Transport;
  signal?: AbortSignal;
  /** File bytes the socket has taken, of the file's size: ~10 times a second while bytes flow, and at the end. */
  onProgress?: (sent: number, total: number) => void;
  /** Awaited just before the last body bytes go out: from then on the service may have the whole request. */
  beforeBodyComplete?: () => void | Promise<void>;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** Read the file on this thread, not libuv's pool (file-source.ts, ReadOptions.blocking):
   * less CPU per byte, but a stalled read stalls the process. For the CLI, not the app. */
  blockingReads?: boolean;
}

export type AttemptResult =
  | { kind: 'delivered'; file: ServiceFile }
  | { kind: 'failed'; reason: FailureReason }
  | { kind: 'unknown'; reason: FailureReason }
  | { kind: 'cancelled' };

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const PROGRESS_INTERVAL_MS = 100;

export function refused(code: string, message: string): AttemptResult {
  return { kind: 'failed', reason: { class: 'input', code, message } };
}

/** The checks that need no network and no file: the same ones the queue runs before accepting a share. */
export function checkJob(
  job: UploadJob,
): { ok: true; channels: string[] } | { ok: false; result: AttemptResult } {
  const token = checkToken(job.token);
  if (!token.ok) return { ok: false, result: refused(token.code, token.message) };
  const base = checkBaseUrl(job.baseUrl);
  if (!base.ok) return { ok: false, result: refused(base.code, base.message) };
  const channels = normaliseChannels(job.channels);
  if (!channels.ok) return { ok: false, result: refused('invalid_channels', channels.error) };
  return { ok: true, channels: channels.channels };
}

export interface ProgressMeter {
  /** `bytes` more of the body were taken by the socket. */
  accepted(bytes: number): void;
  /** The attempt is over: no report after this. */
  stop(): void;
}

/**
 * File bytes the socket has taken, reported to `onProgress` time-based: at once when the last
 * file byte is out, otherwise at most every PROGRESS_INTERVAL_MS, and a value held back by that
 * limit still goes out when the interval ends (so a slow link is seen moving ~10 times a second,
 * and the cost stays the same at any speed). `skip` is the body bytes before the file's.
 */
export function progressMeter(
  total: number,
  onProgress: ((sent: number, total: number) => void) | undefined,
  skip = 0,
): ProgressMeter {
  if (!onProgress) return { accepted: () => {}, stop: () => {} };
  let body = 0;
  // "0 of N" says nothing new; "0 of 0" is the one report an empty file gets.
  let reported = total === 0 ? -1 : 0;
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const sentNow = () => Math.min(total, Math.max(0, body - skip));
  const report = () => {
    timer = undefined;
    const sent = sentNow();
    if (stopped || sent === reported) return;
    last = performance.now();
    reported = sent;
    onProgress(sent, total);
  };
  return {
    accepted(bytes) {
      body += bytes;
      const sent = sentNow();
      if (sent === reported || stopped) return;
      const wait = last + PROGRESS_INTERVAL_MS - performance.now();
      if (sent === total || wait <= 0) {
        if (timer) clearTimeout(timer);
        report();
      } else if (!timer) {
        timer = setTimeout(report, wait);
        timer.unref?.();
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

// Once the whole body is out, stopping cannot take it back from the service.
export function cancelledTooLate(): AttemptResult {
  return {
    kind: 'unknown',
    reason: {
      class: 'unknown-outcome',
      code: 'cancelled_after_send',
      message: `Cancelled after the whole file was sent, before the service answered. ${MAY_BE_DELIVERED}`,
    },
  };
}

/**
 * The service's words (an error code, a Location) reach messages, history and logs; a service
 * that echoes the token must not put it there.
 */
export function withoutToken(result: AttemptResult, token: string): AttemptResult {
  if ((result.kind !== 'failed' && result.kind !== 'unknown') || token === '') return result;
  const scrub = (text: string) => text.split(token).join('[token]');
  const reason: FailureReason = {
    ...result.reason,
    code: scrub(result.reason.code),
    message: scrub(result.reason.message),
  };
  if (reason.location !== undefined) reason.location = scrub(reason.location);
  return { ...result, reason };
}

export async function uploadOnce(job: UploadJob, opts: AttemptOptions): Promise<AttemptResult> {
  return withoutToken(await attempt(job, opts), job.token.trim());
}

async function attempt(job: UploadJob, opts: AttemptOptions): Promise<AttemptResult> {
  if (opts.signal?.aborted) return { kind: 'cancelled' };
  const checked = checkJob(job);
  if (!checked.ok) return checked.result;
  const channels = checked.channels;
  const name = job.file.name.trim() === '' ? 'file' : job.file.name;

  let opened: OpenedFile;
  try {
    opened = await openForUpload({ ...job.file, name });
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    throw error;
  }

  const url = apiUrl(job.baseUrl, 'files.upload');
  let bodyComplete = false;
  let meter: ProgressMeter | undefined;
  try {
    const fields: [string, string][] = [['channels', channels.join(',')]];
    if (job.comment && job.comment.trim() !== '') fields.push(['initial_comment', job.comment]);
    if (job.threadTs) fields.push(['thread_ts', job.threadTs]);
    // Also as a text part: it is plain UTF-8 there, whatever the server makes of the header's name.
    fields.push(['filename', name]);
    const layout = layoutMultipart({ fields, file: { name, size: opened.size } });
    meter = progressMeter(opened.size, opts.onProgress, layout.head.length);
    const ring = new ChunkRing();
    const body = multipartBody(
      layout,
      opened.size,
      readFileChunks(opened, name, ring, {
        blocking: opts.blockingReads === true,
      }),
      {
        beforeTail: async () => {
          // Last chance to stop a request whose content is not the file that was queued.
          await assertUnchanged(opened, name);
          await opts.beforeBodyComplete?.();
          bodyComplete = true;
        },
      },
    );
    const response = await opts.transport.request({
      url,
      method: 'POST',
      headers: {
        authorization: `Bearer ${job.token.trim()}`,
        'content-type': layout.contentType,
        accept: 'application/json',
      },
      body,
      onBodyWritten: (bytes, chunk) => {
        meter?.accepted(bytes);
        ring.release(chunk);
      },
      contentLength: layout.contentLength,
      ...(opts.signal ? { signal: opts.signal } : {}),
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    return classifyResponse(response, { channels, url, bodyComplete });
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    if (opts.signal?.aborted || (error instanceof TransportError && error.code === 'aborted')) {
      return bodyComplete ? cancelledTooLate() : { kind: 'cancelled' };
    }
    if (error instanceof TransportError) {
      return classifyTransportError(error, { channels, url, bodyComplete });
    }
    throw error;
  } finally {
    meter?.stop();
    await opened.handle.close().catch(() => undefined);
  }
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) =>
  delay(ms, undefined, signal ? { signal } : undefined);

export interface RetryOptions {
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  onRetry?: (attempt: number, delayMs: number, reason: FailureReason) => void;
  /** The most this may sleep in all; a longer wait (a Retry-After of a day) ends it with the
   * failure in hand instead. */
  maxWaitMs?: number;
}

/** Runs `once` again after each transient failure, with backoff, up to the policy's attempts. */
export async function retryTransient(
  once: () => Promise<AttemptResult>,
  opts: RetryOptions,
): Promise<AttemptResult> {
  const policy = retryPolicy(opts.retry);
  const sleep = opts.sleep ?? defaultSleep;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    const result = await once();
    if (result.kind !== 'failed' || result.reason.class !== 'transient') return result;
    if (attempt >= policy.maxAttempts) return result;
    const wait = retryDelayMs(attempt, policy, result.reason.retryAfterMs);
    if (opts.maxWaitMs !== undefined && waited + wait > opts.maxWaitMs) {
      return { ...result, reason: { ...result.reason, retryAfterMs: wait } };
    }
    waited += wait;
    opts.onRetry?.(attempt, wait, result.reason);
    try {
      await sleep(wait, opts.signal);
    } catch (error) {
      if (opts.signal?.aborted) return { kind: 'cancelled' };
      throw error;
    }
    if (opts.signal?.aborted) return { kind: 'cancelled' };
  }
}

export async function uploadWithRetries(
  job: UploadJob,
  opts: AttemptOptions & RetryOptions,
): Promise<AttemptResult> {
  return retryTransient(() => uploadOnce(job, opts), opts);
}
