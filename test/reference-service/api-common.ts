// Steps every Web API handler shares: the bearer token, channel checks, and applying an
// injected fault at the point in the exchange where it belongs.
import { STATUS_CODES } from 'node:http';
import { channelExists, type ServiceConfig, type TokenGrant } from './config';
import type { ServiceContext } from './context';
import { type Answer, type Exchange, slackError, textAnswer } from './exchange';
import { type AfterFault, type EarlyFault, type Fault, isEarlyFault } from './faults';
import type { OAuthGrants } from './oauth-grants';

export const MAX_CHANNELS = 100;
/** Room for the multipart framing and text parts on top of the file when judging Content-Length. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;

export type Auth = { ok: true; token: string; grant: TokenGrant } | { ok: false; answer: Answer };

/**
 * The token counts only in `Authorization: Bearer …` (contract: never in the form or the URL).
 * A token from Sign in with Slack is refused with token_expired once its lifetime is over, by
 * every method (service contract, "Sign-in"), and token_revoked after auth.revoke.
 */
export function authenticate(
  headers: { authorization?: string },
  config: ServiceConfig,
  oauth?: OAuthGrants,
  revoked?: Set<string>,
): Auth {
  const match = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '');
  const token = match?.[1];
  if (!token) return { ok: false, answer: slackError('not_authed') };
  const issued = oauth?.grantOf(token);
  if (issued) {
    if ('error' in issued) return { ok: false, answer: slackError(issued.error) };
    return { ok: true, token, grant: issued.grant };
  }
  if (!Object.hasOwn(config.tokens, token))
    return { ok: false, answer: slackError('invalid_auth') };
  if (revoked?.has(token)) return { ok: false, answer: slackError('token_revoked') };
  return { ok: true, token, grant: config.tokens[token]! };
}

/**
 * `C1,C2` → ['C1','C2']: split on commas, empty entries dropped, repeats dropped. No trimming:
 * the seed says "without spaces", so ' C2' is a channel that does not exist.
 */
export function splitChannels(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').filter((c) => c !== ''))];
}

/** The first problem with sharing to `channels`, checked in the order Slack reports them. */
export function channelProblem(
  channels: string[],
  grant: TokenGrant,
  config: ServiceConfig,
): string | undefined {
  if (channels.length > MAX_CHANNELS) return 'channels_limit_exceeded';
  if (channels.some((c) => !channelExists(config, c))) return 'channel_not_found';
  if (channels.some((c) => !grant.channels.includes(c))) return 'not_in_channel';
  return undefined;
}

/**
 * Slack's `thread_ts`: the parent message's ts, and then exactly one channel. Returns the error
 * code for a bad combination, or the ts (undefined when not given).
 */
export function threadArg(
  raw: string | undefined,
  channels: string[],
): { ok: true; threadTs: string | undefined } | { ok: false; error: string } {
  if (raw === undefined || raw === '') return { ok: true, threadTs: undefined };
  if (!/^\d{1,12}\.\d{1,6}$/.test(raw)) return { ok: false, error: 'invalid_arguments' };
  if (channels.length !== 1) return { ok: false, error: 'invalid_arguments' };
  return { ok: true, threadTs: raw };
}

export function rateLimited(retryAfterSeconds: number): Answer {
  return slackError('ratelimited', 429, { 'retry-after': String(retryAfterSeconds) });
}

function earlyFaultAnswer(fault: EarlyFault): Answer {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> =
        fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
      return textAnswer(fault.status, STATUS_CODES[fault.status] ?? 'Error', headers);
    }
    case 'redirect':
      return textAnswer(fault.status ?? 307, `Moved to ${fault.location}`, {
        location: fault.location,
      });
    case 'ratelimit':
      return rateLimited(fault.retryAfter);
    case 'answer-then-close':
      return slackError(fault.error);
  }
}

function resetMidBody(ex: Exchange, afterBytes: number | undefined): void {
  const { req } = ex;
  const length = ex.contentLength;
  const limit = afterBytes ?? (length === undefined ? 16 * 1024 : Math.floor(length / 2));
  if (limit <= 0) {
    ex.reset();
    return;
  }
  ex.letBodyCome();
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen >= limit) ex.reset();
  });
  // A body shorter than the limit still gets no answer.
  req.once('end', () => ex.reset());
  req.resume();
}

/**
 * Takes this request's fault, if any, and carries out the ones that replace processing.
 * Returns 'handled' when nothing more is to be done, or the fault to apply to the answer.
 */
export async function startFault(
  ctx: ServiceContext,
  ex: Exchange,
  method: string,
): Promise<'handled' | AfterFault | undefined> {
  const fault: Fault | undefined = ctx.faults.take(method);
  if (!fault) return undefined;
  ctx.log(`${method}: injected fault ${fault.kind}`);
  if (fault.kind === 'answer-then-close') {
    // Closing with the body unread makes the kernel send RST behind the answer.
    ex.send(earlyFaultAnswer(fault));
    ex.res.once('finish', () => ex.req.socket?.destroy());
    return 'handled';
  }
  if (isEarlyFault(fault)) {
    ex.refuseBeforeBody(earlyFaultAnswer(fault));
    return 'handled';
  }
  if (fault.kind === 'reset-mid-body') {
    resetMidBody(ex, fault.afterBytes);
    return 'handled';
  }
  if (fault.kind === 'error' && !fault.record) {
    // Answered after the whole request arrived, as a real failure would be, but nothing is done.
    if (await ex.drainBody()) ex.send(slackError(fault.error, fault.status ?? 200));
    return 'handled';
  }
  return fault;
}

// The answers a gather rule holds, by the rule's fault (one object per rule, FaultBook.take).
const gathering = new WeakMap<Fault, (() => void)[]>();

function gather(
  ctx: ServiceContext,
  fault: Extract<Fault, { kind: 'gather' }>,
  answer: () => void,
) {
  const held = gathering.get(fault) ?? [];
  gathering.set(fault, held);
  held.push(answer);
  const release = () => {
    if (gathering.get(fault) !== held) return;
    gathering.delete(fault);
    for (const send of held) send();
  };
  if (held.length >= fault.count) release();
  else if (held.length === 1) ctx.later(fault.maxWaitMs ?? 10_000, release);
}

const proxyPage = (status: number): string => {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
};

/**
 * Sends `answer`, changed by the request's after-body fault if it has one. `bodyRead` says
 * whether the body was read to the end; if not, a plain answer refuses without reading it,
 * while a fault answer waits for the whole body (those faults happen after the body).
 */
export async function finish(
  ctx: ServiceContext,
  ex: Exchange,
  fault: AfterFault | undefined,
  answer: Answer,
  bodyRead: boolean,
): Promise<void> {
  if (!fault) {
    if (bodyRead) ex.send(answer);
    else ex.refuseBeforeBody(answer);
    return;
  }
  if (!bodyRead && !(await ex.drainBody())) return;
  switch (fault.kind) {
    case 'reset-after-body':
      ex.reset();
      return;
    case 'proxy-html':
      ex.send({
        status: fault.status,
        headers: { 'content-type': 'text/html' },
        body: proxyPage(fault.status),
      });
      return;
    case 'truncated-json':
      ex.send({
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: answer.body.slice(0, Math.max(1, Math.floor(answer.body.length / 2))),
      });
      return;
    case 'slow':
      ctx.later(fault.delayMs, () => ex.send(answer));
      return;
    case 'gather':
      gather(ctx, fault, () => ex.send(answer));
      return;
    case 'error':
      ex.send(slackError(fault.error, fault.status ?? 200));
      return;
    case 'encoded-answer':
      ex.send(answer, fault.encoding);
      return;
  }
}
