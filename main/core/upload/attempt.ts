// What one upload attempt is, whichever protocol carries it (files.upload in engine.ts, Slack's
// external protocol in external/): the job, the options, the result, the checks made
// before any byte is sent, the answer to a cancel that came too late, the token kept out of
// messages, and transient failures tried again.
import { normaliseChannels } from '../../portable/channels';
import { checkBaseUrl, checkToken } from '../../portable/credentials';
import type { FailureReason, ServiceFile } from '../model';
import { defaultSleep, type Sleep } from '../sleep';
import { MAY_BE_DELIVERED } from './error-messages';
import type { ExpectedFile } from './file-source';
import type { RateLimitLine, Turn } from './rate-limit-line';
import { isRateLimit, type RetryPolicy, retryDelayMs, retryPolicy } from './retry';
import type { Transport } from './transport';

export interface UploadJob {
  baseUrl: string;
  token: string;
  channels: string[];
  comment?: string;
  /** Reply in this thread (the parent message's ts); the job then has exactly one channel. */
  threadTs?: string;
  file: ExpectedFile;
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
  /** Read the file, and stat and check it, on this thread, not libuv's pool (file-source.ts,
   * ReadOptions.blocking): less CPU per byte and no wait behind other files' reads, but a
   * stalled read stalls the process. For the CLI, not the app. */
  blockingReads?: boolean;
}

export type AttemptResult =
  | { kind: 'delivered'; file: ServiceFile }
  | { kind: 'failed'; reason: FailureReason }
  | { kind: 'unknown'; reason: FailureReason }
  | { kind: 'cancelled' };

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
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
 * What every protocol's attempt does around its own steps: nothing goes once cancelled or for a
 * job that cannot be right, and no result carries the token. `run` gets the job's channels.
 */
export async function checkedAttempt(
  job: UploadJob,
  signal: AbortSignal | undefined,
  run: (channels: string[]) => Promise<AttemptResult>,
): Promise<AttemptResult> {
  if (signal?.aborted) return { kind: 'cancelled' };
  const checked = checkJob(job);
  const result = checked.ok ? await run(checked.channels) : checked.result;
  return withoutToken(result, job.token.trim());
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

export interface RetryOptions {
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  sleep?: Sleep;
  onRetry?: (attempt: number, delayMs: number, reason: FailureReason) => void;
  /** The most this may sleep in all; a longer wait (a Retry-After of a day) ends it with the
   * failure in hand instead. */
  maxWaitMs?: number;
  /** The send's shared rate-limit line: a 429 then pauses every file of the send and costs no
   * try, and its wait counts against the line's --max-wait instead (rate-limit-line.ts). */
  rateLimits?: RateLimitLine;
}

/** Runs `once` again after each transient failure, with backoff, up to the policy's attempts. */
export async function retryTransient(
  once: () => Promise<AttemptResult>,
  opts: RetryOptions,
): Promise<AttemptResult> {
  const policy = retryPolicy(opts.retry);
  const sleep = opts.sleep ?? defaultSleep;
  const place = opts.rateLimits?.place();
  let waited = 0;
  let last: Extract<AttemptResult, { kind: 'failed' }> | undefined;
  let turn: Turn = place ? await place.turn(opts.signal) : { go: true };
  for (let attempt = 1; ; ) {
    if (!turn.go) return turn.cancelled ? { kind: 'cancelled' } : waitedTooLong(last, turn.waitMs);
    let result: AttemptResult;
    try {
      result = await once();
    } catch (error) {
      // The next file in line must not wait for ever on a try that threw.
      place?.done();
      throw error;
    }
    if (place && result.kind === 'failed' && isRateLimit(result.reason)) {
      last = result;
      turn = await place.limited(result.reason.retryAfterMs, opts.signal);
      continue;
    }
    place?.done();
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
    attempt++;
    turn = place ? await place.turn(opts.signal) : { go: true };
  }
}

/** A rate limit that outlasts --max-wait: the service's answer, with how long it still asks. */
function waitedTooLong(
  last: Extract<AttemptResult, { kind: 'failed' }> | undefined,
  waitMs: number,
): AttemptResult {
  const reason: FailureReason = last?.reason ?? {
    class: 'transient',
    code: 'ratelimited',
    message: 'The service is limiting how fast uploads may be sent (rate limited).',
  };
  return { kind: 'failed', reason: { ...reason, retryAfterMs: waitMs } };
}

/**
 * Work over a list, at most `limit` items at a time (the concurrency setting): each worker takes
 * the next item when it is done, so one slow item never holds the others back.
 */
export async function eachAtMost(
  count: number,
  limit: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
}
