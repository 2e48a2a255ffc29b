// POST /api/files.upload: the seed's operation. Checks that need only the headers (token, form
// type, declared size, rate) answer before the body is read; the file then streams to disk
// and is kept only when the whole request is valid.
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  authenticate,
  channelProblem,
  FORM_OVERHEAD_BYTES,
  finish,
  rateLimited,
  splitChannels,
  startFault,
  threadArg,
} from './api-common';
import type { ServiceContext } from './context';
import { destinations } from './direct-messages';
import { type Answer, type Exchange, jsonAnswer, slackError } from './exchange';
import { fileObject, guessMimeType, newId } from './file-object';
import { isMultipart, receiveMultipart } from './multipart';

export async function filesUpload(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'files.upload');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  if (!isMultipart(ex.req)) return done(slackError('invalid_form_data'), false);
  const declared = ex.contentLength;
  if (declared !== undefined && declared > ctx.config.maxFileBytes + FORM_OVERHEAD_BYTES) {
    return done(slackError('file_upload_size_restricted'), false);
  }
  const rate = ctx.limiter.take(auth.token);
  if (!rate.allowed) return done(rateLimited(rate.retryAfterSeconds), false);

  ex.letBodyCome();
  const id = newId('F');
  const form = await receiveMultipart(ex.req, {
    file: {
      path: join(ctx.incomingDir, `${id}.part`),
      maxBytes: ctx.config.maxFileBytes,
      wanted: (field) => field === 'file',
    },
  });
  if (form.kind === 'aborted') return; // the client went away: nothing to answer, nothing kept
  if (form.kind === 'too-large') return done(slackError('file_upload_size_restricted'), false);
  if (form.kind === 'invalid') return done(slackError('invalid_form_data'), false);

  const { fields, file } = form;
  ex.noteArgs({ ...Object.fromEntries(fields), ...(file ? { file: '(file part)' } : {}) });
  if (!file) return done(slackError('no_file_data'), true);
  const requested = splitChannels(fields.get('channels'));
  const thread = threadArg(fields.get('thread_ts'), requested);
  const targets = destinations(ctx, auth.grant, requested);
  const problem = !thread.ok
    ? thread.error
    : !targets.ok
      ? targets.error
      : channelProblem(targets.existing, auth.grant, ctx.config);
  if (problem || !thread.ok || !targets.ok) {
    await rm(file.path, { force: true });
    return done(slackError(problem ?? 'invalid_arguments'), true);
  }
  const channels = targets.open();

  // Slack's `filename` argument names the file; the part's own name is the fallback.
  const name = fields.get('filename') || file.filename || 'Untitled';
  await rename(file.path, join(ctx.filesDir, id));
  const comment = fields.get('initial_comment');
  ctx.record({
    id,
    name,
    size: file.size,
    sha256: file.sha256,
    channels,
    initial_comment: comment ?? null,
    user: auth.grant.user,
    ...(thread.threadTs === undefined ? {} : { thread_ts: thread.threadTs }),
  });
  const described = {
    id,
    name,
    title: fields.get('title') || name,
    mimetype: guessMimeType(name, file.mimeType),
    size: file.size,
    created: Math.floor(ctx.now() / 1000),
    user: auth.grant.user,
  };
  ctx.files.hold(described);
  // Each files.upload request is its own message; without channels the file stays private.
  if (channels.length > 0) {
    const ts = ctx.postMessage({
      channels,
      files: [id],
      initial_comment: comment ?? null,
      thread_ts: thread.threadTs ?? null,
      user: auth.grant.user,
    });
    ctx.files.share(id, channels, {
      ts,
      user: auth.grant.user,
      ...(thread.threadTs === undefined ? {} : { threadTs: thread.threadTs }),
    });
  }
  const shared = fileObject(ctx.url, { ...described, channels });
  return done(jsonAnswer({ ok: true, file: shared }), true);
}
