// One request of the external protocol and the answers every step shares: the attempt's state,
// the form body, the headers, the failures that say "nothing was shared", and the checkpoint an
// attempt leaves in the queue's journal (below).
import type { FailureReason } from '../../model';
import {
  type AttemptOptions,
  type AttemptResult,
  checkJob,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  type RetryOptions,
  type UploadJob,
} from '../attempt';
import { TransportError, type TransportRequest, type TransportResponse } from '../transport';

/** At most this many files per completion (the contract's bound): one message each. */
export const MAX_FILES_PER_COMPLETION = 10;

export interface ExternalAttemptOptions extends AttemptOptions {
  /** An earlier attempt's last checkpoint (anything that is not one is ignored). */
  resume?: unknown;
  /** Saves where this attempt got to, durably when the queue runs it; null: nothing to resume. */
  checkpoint?: (data: ExternalCheckpoint | null) => void | Promise<void>;
  /**
   * The concurrency setting (default 1): slots of bytes in flight for a share's byte uploads in
   * the CLI (byte-budget.ts). files.info after a completion asks for the whole group at once.
   */
  concurrency?: number;
  /** How long the service keeps bytes never completed; an older checkpoint starts over. */
  uploadTtlMs?: number;
  /**
   * Step 1 asked for ahead of this attempt, while the file waited for a byte slot (a share asks
   * for all its files' upload addresses at once): what that ask gave, taken once. An address for
   * another name, size, token or service, or older than half the upload TTL, is not used: step 1
   * is asked again then.
   */
  uploadTicket?: () => Promise<UploadTicket | AttemptResult | undefined>;
  /** Runs each step-1 request: a share keeps at most STEP_ONE_IN_FLIGHT of them open. */
  stepOneGate?: <T>(ask: () => Promise<T>) => Promise<T>;
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
   * After a step 3 whose outcome is unclear, how long files.info is asked whether the files
   * were shared (several looks; share-check.ts), and the most a files.info 429 is waited out.
   * Slack may list a share late. Default 30 000 ms.
   */
  shareCheckWindowMs?: number;
  /** Kept for callers that pass their retry policy; step 3 is never repeated on a timer. */
  retry?: RetryOptions['retry'];
  sleep?: RetryOptions['sleep'];
  now?: () => number;
}

/**
 * Step-1 requests one share keeps open at most. files.getUploadURLExternal is a Tier 4 method
 * (100+ a minute, https://docs.slack.dev/reference/methods/files.getUploadURLExternal/ and
 * https://docs.slack.dev/apis/web-api/rate-limits/): ten at once stays well inside it, where
 * the SDK's filesUploadV2 asks for every file at once (node-slack-sdk
 * packages/web-api/src/WebClient.ts, fetchAllUploadURLExternal: Promise.all).
 */
export const STEP_ONE_IN_FLIGHT = 10;

/** What step 1 gave: where to send one file's bytes. Kept in memory only, never journaled. */
export interface UploadTicket {
  uploadUrl: string;
  fileId: string;
  /** What it was asked for: the service expects exactly this name and length. */
  name: string;
  length: number;
  base: string;
  /** The file_id belongs to this token's user; a changed token asks again. */
  token: string;
  /** When the service gave it (epoch ms). */
  at: number;
}

export const NOTHING_SHARED =
  'Nothing was shared: only the last step shares a file, so it is safe to try again.';

export function normalBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

export interface Attempt {
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

export type Sent =
  | { res: TransportResponse; bodyComplete: boolean }
  | { error: TransportError; bodyComplete: boolean };

/** One request; transport errors come back as values, anything else is thrown. */
export async function send(
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

export function aborted(a: Attempt, sent?: Sent): boolean {
  return (
    a.opts.signal?.aborted === true ||
    (sent !== undefined && 'error' in sent && sent.error.code === 'aborted')
  );
}

/** A small form body, pulled in one piece; `before` runs first (the queue's journal point). */
export function formBody(
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

export function apiHeaders(a: Attempt): Record<string, string> {
  return {
    authorization: `Bearer ${a.token}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
}

export function transient(code: string, message: string, retryAfterMs?: number): AttemptResult {
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

export function failed(reason: FailureReason): AttemptResult {
  return { kind: 'failed', reason };
}

/**
 * Steps 1 and 2 share nothing, so no outcome of theirs is "may have been delivered": an
 * answer that was lost or unreadable is a failure worth trying again.
 */
export function beforeSharing(result: AttemptResult, step: string): AttemptResult {
  if (result.kind !== 'unknown') return result;
  return transient(
    result.reason.code,
    `No usable answer while ${step} (${result.reason.code}). ${NOTHING_SHARED}`,
  );
}

export function transportFailure(error: TransportError, step: string): AttemptResult {
  // Retrying cannot fix a certificate.
  if (error.code === 'tls_error') {
    return failed({ class: 'other', code: error.code, message: error.message });
  }
  return transient(error.code, `While ${step}: ${error.message} ${NOTHING_SHARED}`);
}

export function retiredHere(code: string, method: string): AttemptResult {
  return failed({
    class: 'other',
    code,
    message: `This service does not offer Slack's external upload protocol (it answered ${code} to ${method}). Switch the workspace to files.upload in Settings and send it again.`,
  });
}

export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function unknownAfterCompleting(code: string, message: string): AttemptResult {
  return { kind: 'unknown', reason: { class: 'unknown-outcome', code, message } };
}

export function nameOf(job: UploadJob): string {
  return job.file.name.trim() === '' ? 'file' : job.file.name;
}

export function attemptOf(job: UploadJob, opts: ExternalAttemptOptions): Attempt | AttemptResult {
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

// What an external-protocol attempt leaves in the queue's journal between attempts: the file's
// bytes are on the service, and whether a step 3 for them may have gone out. Plain data, so the
// queue, the protocol and the resume rules can all read it without importing each other.

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

/** Slack does not publish it; the reference service uses 10 minutes. Only an optimisation. */
export const DEFAULT_UPLOAD_TTL_MS = 10 * 60_000;

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
