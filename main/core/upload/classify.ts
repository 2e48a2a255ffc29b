// Turns what came back from one attempt into an outcome, exactly per the contract's table
// (../shared/spec/service-contract.md). The question behind every row: could the service have
// processed this request? Only when it cannot is an automatic retry safe.
import type { FailureReason, ServiceFile } from '../model';
import type { AttemptResult } from './attempt';
import { MAY_BE_DELIVERED, printableCode, serviceError } from './error-messages';
import type { TransportError, TransportResponse } from './transport';

export interface ClassifyContext {
  /** The channels of the request, named by target errors. */
  channels: readonly string[];
  /** The request URL (never holds the token), for redirects and 404s. */
  url: string;
  /** True once the last body byte was handed to the transport: from then on the service may have it all. */
  bodyComplete: boolean;
  now?: () => number;
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

interface SlackAnswer {
  ok: boolean;
  error?: unknown;
  needed?: unknown;
  file?: unknown;
}

function slackAnswer(body: string): SlackAnswer | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (value && typeof value === 'object' && typeof (value as SlackAnswer).ok === 'boolean') {
      return value as SlackAnswer;
    }
  } catch {
    // not JSON: handled by the caller from the status
  }
  return undefined;
}

/** The service's file object, keeping only well-typed fields (the answer may hold anything). */
export function serviceFile(value: unknown): ServiceFile {
  if (!value || typeof value !== 'object') return {};
  const raw = value as Record<string, unknown>;
  const file: ServiceFile = {};
  for (const key of ['id', 'name', 'title', 'permalink', 'url_private'] as const) {
    if (typeof raw[key] === 'string') file[key] = raw[key];
  }
  if (typeof raw.size === 'number') file.size = raw.size;
  if (Array.isArray(raw.channels)) {
    file.channels = raw.channels.filter((c): c is string => typeof c === 'string');
  }
  return file;
}

function failed(reason: FailureReason): AttemptResult {
  return { kind: 'failed', reason };
}

function unknownOutcome(code: string, message: string): AttemptResult {
  return {
    kind: 'unknown',
    reason: { class: 'unknown-outcome', code, message: `${message} ${MAY_BE_DELIVERED}` },
  };
}

function describeBody(body: string): string {
  const text = body.trimStart();
  if (text === '') return 'an empty answer';
  if (/^<(!doctype|html|head|body|\?xml)/i.test(text)) return 'an HTML page';
  if (/^[[{]/.test(text)) return 'an incomplete or unexpected JSON answer';
  return 'an answer that is not JSON';
}

function redirect(res: TransportResponse, ctx: ClassifyContext): AttemptResult {
  const raw = res.headers.location;
  let location: string | undefined;
  if (raw) {
    try {
      location = new URL(raw, ctx.url).href;
    } catch {
      location = raw;
    }
  }
  const where = location ? `to ${location}` : 'without saying where';
  return failed({
    class: 'redirect',
    code: `http_${res.status}`,
    message: `The service redirected the request ${where} (HTTP ${res.status}). Trayshare does not follow redirects, so the token stays with the service you set up; if the service has moved, change the workspace's base URL.`,
    ...(location ? { location } : {}),
  });
}

function fromServiceCode(
  answer: SlackAnswer,
  ctx: ClassifyContext,
  retryAfterMs: number | undefined,
): AttemptResult {
  const code =
    typeof answer.error === 'string' && answer.error !== ''
      ? printableCode(answer.error)
      : 'unknown_error';
  const info = serviceError(code);
  const message = info.message({
    channels: ctx.channels,
    ...(typeof answer.needed === 'string' ? { needed: answer.needed } : {}),
  });
  if (info.class === 'unknown-outcome') {
    return { kind: 'unknown', reason: { class: 'unknown-outcome', code, message } };
  }
  const reason: FailureReason = { class: info.class, code, message };
  if (info.class === 'target') reason.channels = [...ctx.channels];
  if (info.class === 'transient' && retryAfterMs !== undefined) reason.retryAfterMs = retryAfterMs;
  return failed(reason);
}

export function classifyResponse(res: TransportResponse, ctx: ClassifyContext): AttemptResult {
  const status = res.status;
  const now = ctx.now?.() ?? Date.now();
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now);

  if (status >= 300 && status < 400) return redirect(res, ctx);
  const busy = busyAnswer(res, ctx, retryAfterMs);
  if (busy) return busy;

  const answer = slackAnswer(res.body);
  if (answer && !answer.ok) return fromServiceCode(answer, ctx, retryAfterMs);
  if (answer?.ok && status >= 200 && status < 300) {
    return { kind: 'delivered', file: serviceFile(answer.file) };
  }
  return withoutSlackAnswer(res, ctx);
}

/** The service or a gateway in front of it too busy to answer: rate limits, 502, 503, 504. */
function busyAnswer(
  res: TransportResponse,
  ctx: ClassifyContext,
  retryAfterMs: number | undefined,
): AttemptResult | undefined {
  const status = res.status;
  if (status === 429) {
    const wait =
      retryAfterMs !== undefined ? ` It asked to wait ${Math.ceil(retryAfterMs / 1000)} s.` : '';
    return failed({
      class: 'transient',
      code: 'ratelimited',
      message: `${serviceError('ratelimited').message({ channels: ctx.channels })}${wait}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status === 503) {
    return failed({
      class: 'transient',
      code: 'http_503',
      message: 'The service is temporarily unavailable (HTTP 503); nothing was delivered.',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status === 502 || status === 504) {
    const what = `A gateway in front of the service answered HTTP ${status} (${describeBody(res.body)})`;
    if (ctx.bodyComplete)
      return unknownOutcome(`http_${status}`, `${what} after the whole file was sent.`);
    return failed({
      class: 'transient',
      code: `http_${status}`,
      message: `${what} before the file was fully sent; nothing was delivered.`,
    });
  }
  return undefined;
}

/** An HTTP answer with no Slack-style body to read: its status says what happened. */
function withoutSlackAnswer(res: TransportResponse, ctx: ClassifyContext): AttemptResult {
  const status = res.status;
  if (status >= 200 && status < 300) {
    return unknownOutcome(
      'invalid_answer',
      `The service answered HTTP ${status} with ${describeBody(res.body)} instead of a Slack-style answer.`,
    );
  }
  if (status === 408) {
    return failed({
      class: 'transient',
      code: 'http_408',
      message: 'The service timed out waiting for the upload (HTTP 408); nothing was delivered.',
    });
  }
  if (status === 413) {
    return failed({
      class: 'content',
      code: 'http_413',
      message: 'The file is larger than the service accepts (HTTP 413).',
    });
  }
  if (status === 404) {
    return failed({
      class: 'other',
      code: 'http_404',
      message: `Nothing answers at ${ctx.url} (HTTP 404): check the workspace's base URL.`,
    });
  }
  if (status >= 500) {
    const what = `The service answered HTTP ${status} (${describeBody(res.body)})`;
    if (ctx.bodyComplete)
      return unknownOutcome(`http_${status}`, `${what} after the whole file was sent.`);
    return failed({
      class: 'transient',
      code: `http_${status}`,
      message: `${what} before the file was fully sent; nothing was delivered.`,
    });
  }
  return failed({
    class: 'other',
    code: `http_${status}`,
    message: `The service answered HTTP ${status} (${describeBody(res.body)}).`,
  });
}

export function classifyTransportError(error: TransportError, ctx: ClassifyContext): AttemptResult {
  switch (error.code) {
    case 'aborted':
      return { kind: 'cancelled' };
    case 'connection_refused':
    case 'dns_failure':
    case 'connect_timeout':
      // No connection: not one byte reached the service.
      return failed({
        class: 'transient',
        code: error.code,
        message: `${error.message} Nothing was delivered.`,
      });
    case 'tls_error':
      // Retrying cannot fix a certificate.
      return failed({ class: 'other', code: error.code, message: error.message });
    default:
      if (ctx.bodyComplete) {
        return unknownOutcome(
          error.code,
          `The whole file was sent, then no answer came: ${error.message}`,
        );
      }
      return failed({
        class: 'transient',
        code: error.code,
        message: `${error.message} The file was not fully sent, so nothing was delivered.`,
      });
  }
}
