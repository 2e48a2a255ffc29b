// Slack's current upload protocol: files.getUploadURLExternal → POST the bytes to upload_url →
// files.completeUploadExternal, which shares once. Error codes are the ones Slack documents for
// these methods (file_not_found: "Could not find the file from the upload ticket").
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Args, readArgs, stringArg } from './api-args';
import {
  authenticate,
  channelProblem,
  FORM_OVERHEAD_BYTES,
  finish,
  MAX_CHANNELS,
  rateLimited,
  splitChannels,
  startFault,
  threadArg,
} from './api-common';
import type { ServiceContext } from './context';
import { destinations, isUserId } from './direct-messages';
import { receiveRawBody } from './disk-sink';
import { type Answer, type Exchange, jsonAnswer, slackError, textAnswer } from './exchange';
import type { Ticket } from './external-uploads';
import { fileObject, guessMimeType } from './file-object';
import { isMultipart, receiveMultipart } from './multipart';

export async function getUploadUrlExternal(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'files.getUploadURLExternal');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  // Starting an upload is what the per-token upload rate counts, in both protocols.
  const rate = ctx.limiter.take(auth.token);
  if (!rate.allowed) return done(rateLimited(rate.retryAfterSeconds), false);

  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid') return done(slackError(parsed.code), parsed.bodyRead);
  const filename = stringArg(parsed.args, 'filename');
  const lengthText = stringArg(parsed.args, 'length');
  if (!filename || lengthText === undefined || !/^\d+$/.test(lengthText.trim())) {
    return done(slackError('invalid_arguments'), true);
  }
  const length = Number(lengthText.trim());
  // Slack: "missing_argument … typically only occurs when the length provided is 0".
  if (length === 0) return done(slackError('missing_argument'), true);
  if (length > ctx.config.maxFileBytes)
    return done(slackError('file_upload_size_restricted'), true);

  const ticket = ctx.external.open(auth.grant.user, filename, length);
  // The file_id names a file from here on (files.info finds it, with no shares yet).
  ctx.files.hold({
    id: ticket.id,
    name: filename,
    title: filename,
    mimetype: guessMimeType(filename),
    size: length,
    created: Math.floor(ctx.now() / 1000),
    user: auth.grant.user,
  });
  const uploadUrl = `${ctx.url}/_upload/${ticket.id}?s=${ticket.secret}`;
  return done(jsonAnswer({ ok: true, upload_url: uploadUrl, file_id: ticket.id }), true);
}

/** POST {upload_url}: raw body or multipart with one file part. No token needed, as on Slack. */
export async function receiveExternalBytes(
  ctx: ServiceContext,
  ex: Exchange,
  id: string,
  secret: string | null,
): Promise<void> {
  const fault = await startFault(ctx, ex, 'upload');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  if (ex.req.method !== 'POST') return done(textAnswer(405, 'Method Not Allowed'), false);
  const ticket = ctx.external.byUrl(id, secret);
  if (!ticket) return done(textAnswer(404, 'Not Found: unknown upload URL'), false);
  if (await ctx.external.expireIfDue(ticket)) {
    return done(textAnswer(410, 'Gone: upload URL expired'), false);
  }
  if (ticket.state === 'completed')
    return done(textAnswer(409, 'Conflict: already completed'), false);
  if (ticket.state === 'receiving')
    return done(textAnswer(409, 'Conflict: upload in progress'), false);

  const multipart = isMultipart(ex.req);
  const declared = ex.contentLength;
  const allowed = ticket.length + (multipart ? FORM_OVERHEAD_BYTES : 0);
  if (declared !== undefined && declared > allowed) {
    return done(textAnswer(413, `Payload Too Large: ${ticket.length} bytes were announced`), false);
  }

  const before = ticket.state;
  ticket.state = 'receiving';
  ex.letBodyCome();
  const temp = `${ticket.path}.part`;
  const received = multipart
    ? await receiveMultipart(ex.req, {
        file: { path: temp, maxBytes: ticket.length, wanted: () => true },
      })
    : await receiveRawBody(ex.req, temp, ticket.length);
  const restore = (): void => {
    if (ticket.state === 'receiving') ticket.state = before;
  };

  if (received.kind === 'aborted') return restore();
  if (received.kind !== 'ok') {
    restore();
    if (received.kind === 'too-large') {
      return done(
        textAnswer(413, `Payload Too Large: ${ticket.length} bytes were announced`),
        false,
      );
    }
    if (received.kind === 'invalid')
      return done(textAnswer(400, 'Bad Request: invalid form'), false);
    return done(textAnswer(500, 'Internal Server Error: could not store the bytes'), false);
  }
  const digest = 'digest' in received ? received.digest : received.file;
  if (!digest) {
    restore();
    return done(textAnswer(400, 'Bad Request: no file part'), true);
  }
  // The TTL may have run out while the bytes arrived.
  if (ctx.external.isDiscarded(ticket)) {
    await rm(temp, { force: true });
    return done(textAnswer(410, 'Gone: upload URL expired'), true);
  }
  if (digest.size !== ticket.length) {
    await rm(temp, { force: true });
    restore();
    return done(
      textAnswer(
        400,
        `Bad Request: received ${digest.size} bytes, ${ticket.length} were announced`,
      ),
      true,
    );
  }
  await rename(temp, ticket.path);
  ticket.digest = { size: digest.size, sha256: digest.sha256 };
  ticket.state = 'uploaded';
  return done(textAnswer(200, `OK - ${digest.size}`), true);
}

type FileRef = { id: string; title?: string };

function fileRefs(args: Args): FileRef[] | undefined {
  let value = args.files;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const refs: FileRef[] = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object') return undefined;
    const { id, title } = item as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') return undefined;
    if (title !== undefined && typeof title !== 'string') return undefined;
    if (!refs.some((r) => r.id === id)) refs.push(title === undefined ? { id } : { id, title });
  }
  return refs;
}

export async function completeUploadExternal(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'files.completeUploadExternal');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid') return done(slackError(parsed.code), parsed.bodyRead);

  const refs = fileRefs(parsed.args);
  // Slack names no limit; past the one seen (config.ts) it failed, here invalid_arguments.
  if (!refs || refs.length > ctx.config.filesPerCompletion)
    return done(slackError('invalid_arguments'), true);
  // Slack's docs list `channel_id` (one channel, what both SDKs send) and `channels` (comma
  // separated) side by side and say nothing of both at once: here the message goes to both.
  const channelId = stringArg(parsed.args, 'channel_id');
  // `channels` takes user IDs, `channel_id` does not: Slack refuses a U… there with
  // invalid_arguments, "input must match regex pattern: ^[CGDZ][A-Z0-9]{8,}$
  // [json-pointer:/channel_id]" (slackapi/bolt-js#2115). Only the first letter is checked
  // here (looser than Slack: the tests' IDs are shorter than Slack's).
  if (channelId && isUserId(channelId)) return done(slackError('invalid_arguments'), true);
  const requested = splitChannels(
    [channelId, stringArg(parsed.args, 'channels')].filter(Boolean).join(','),
  );
  if (requested.length > MAX_CHANNELS) return done(slackError('channels_limit_exceeded'), true);

  const tickets: Ticket[] = [];
  for (const ref of refs) {
    const ticket = ctx.external.byId(ref.id);
    // Someone else's ticket, one never given bytes, expired or already shared: not found.
    if (!ticket || ticket.user !== auth.grant.user || (await ctx.external.expireIfDue(ticket))) {
      return done(slackError('file_not_found'), true);
    }
    tickets.push(ticket);
  }
  const again = ctx.config.repeatCompletion === 'posts-again';
  if (tickets.some((t) => t.state !== 'uploaded' && !(again && t.state === 'completed'))) {
    return done(slackError('file_not_found'), true);
  }
  const thread = threadArg(stringArg(parsed.args, 'thread_ts'), requested);
  if (!thread.ok) return done(slackError(thread.error), true);
  const targets = destinations(ctx, auth.grant, requested);
  if (!targets.ok) return done(slackError(targets.error), true);
  const problem = channelProblem(targets.existing, auth.grant, ctx.config);
  if (problem) return done(slackError(problem), true);
  const channels = targets.open();

  // Marked before any await, so a concurrent second completion already finds nothing.
  const firstTime = tickets.map((t) => t.state === 'uploaded');
  for (const t of tickets) t.state = 'completed';
  const comment = stringArg(parsed.args, 'initial_comment');
  const created = Math.floor(ctx.now() / 1000);
  const files = [];
  for (const [i, t] of tickets.entries()) {
    if (firstTime[i]) await rename(t.path, join(ctx.filesDir, t.id));
    const digest = t.digest!;
    ctx.record({
      id: t.id,
      name: t.filename,
      size: digest.size,
      sha256: digest.sha256,
      channels,
      initial_comment: comment ?? null,
      user: auth.grant.user,
      ...(thread.threadTs === undefined ? {} : { thread_ts: thread.threadTs }),
    });
    const title = refs[i]?.title || t.filename;
    ctx.files.hold({
      id: t.id,
      name: t.filename,
      title,
      mimetype: guessMimeType(t.filename),
      size: digest.size,
      created,
      user: auth.grant.user,
    });
    files.push(
      ctx.config.completionAnswer === 'full'
        ? fileObject(ctx.url, {
            id: t.id,
            name: t.filename,
            title,
            mimetype: guessMimeType(t.filename),
            size: digest.size,
            created,
            user: auth.grant.user,
            // Shares listed late are not in the answer either.
            channels: ctx.config.shareDelayMs > 0 ? [] : channels,
          })
        : // What Slack's method page documents, and nothing more: no permalink
          // (https://docs.slack.dev/reference/methods/files.completeUploadExternal; the same
          // `File {id?, title?}` in node-slack-sdk 6.8's FilesCompleteUploadExternalResponse).
          { id: t.id, title },
    );
  }
  // Every file of one completion is shared together: one message, one comment. Completing
  // without a channel keeps the files private, so no message is posted.
  if (channels.length > 0) {
    const ts = ctx.postMessage({
      channels,
      files: tickets.map((t) => t.id),
      initial_comment: comment ?? null,
      thread_ts: thread.threadTs ?? null,
      user: auth.grant.user,
    });
    const listShares = () => {
      for (const t of tickets) {
        ctx.files.share(t.id, channels, {
          ts,
          user: auth.grant.user,
          ...(thread.threadTs === undefined ? {} : { threadTs: thread.threadTs }),
        });
      }
    };
    if (ctx.config.shareDelayMs > 0) ctx.later(ctx.config.shareDelayMs, listShares);
    else listShares();
  }
  return done(jsonAnswer({ ok: true, files }), true);
}
