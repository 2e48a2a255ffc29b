// Step 3 of the external protocol, the only one that shares anything: files.completeUploadExternal
// for one file or for a group (one message). Slack documents that it completes an upload once,
// not what a repeat answers, and adds shares asynchronously, so a step 3 whose answer was
// unclear is never sent again: files.info (share-check.ts) can only tell that the files were
// shared; when it does not within its window, the outcome stays "may have been delivered".
// A definite refusal (a 429, 503 or ratelimited answer) shared nothing: the queue tries again.

import { apiUrl } from '../../../portable/credentials';
import type { FailureReason, ServiceFile } from '../../model';
import { type AttemptResult, cancelledTooLate, type UploadJob, withoutToken } from '../attempt';
import { classifyResponse, classifyTransportError, serviceFile } from '../classify';
import { MAY_BE_DELIVERED } from '../error-messages';
import type { FileInfo } from '../file-links';
import type { ExternalCheckpoint } from './request';
import {
  type Attempt,
  aborted,
  apiHeaders,
  attemptOf,
  type ExternalAttemptOptions,
  failed,
  formBody,
  jsonObject,
  NOTHING_SHARED,
  nameOf,
  retiredHere,
  send,
  unknownAfterCompleting,
} from './request';
import { lookForShares, whyUnclear, withLinks } from './share-check';

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

export type Completed = { startOver: FailureReason } | AttemptResult;

/**
 * Step 3. `group` shares several files, whose bytes are on the service, as one message: the
 * request, its answer and its unknown outcome are the whole group's.
 */
export async function complete(
  a: Attempt,
  start: ExternalCheckpoint,
  group?: readonly { id: string; title: string }[],
): Promise<Completed & { files?: ServiceFile[] }> {
  const url = apiUrl(a.base, COMPLETE_METHOD);
  const ids = group ? group.map((g) => g.id) : [start.fileId];
  const form = completionForm(a, start, group);
  const delivered = async (files: ServiceFile[], known?: FileInfo[]) => {
    const linked = await withLinks(a, files, known);
    return {
      kind: 'delivered' as const,
      file: linked[0] ?? { id: start.fileId },
      ...(group ? { files: linked } : {}),
    };
  };

  const cp: ExternalCheckpoint = { ...start, completing: true };
  // Journaled just before the request's body goes: a crash before that point certainly sent
  // nothing, and the file goes on at step 3 without asking first. A crash after it leaves the
  // file "may have been delivered" even when the request never left, so the time between the
  // mark and the body is kept to the mark's own write and fsync (see markThenSend).
  let completingSaved = start.completing;
  const notCompleting = () => a.save({ ...cp, completing: false });
  const lookedFor = async (last?: FailureReason) => {
    const seen = await askWhetherShared(a, ids, last);
    return seen.kind === 'shared' ? delivered(seen.files, seen.infos) : seen;
  };

  // A request of ours may have completed these files without our hearing the answer.
  if (start.completing) return lookedFor();
  const state = { bodyComplete: false };
  const body = formBody(form, state, async () => {
    await markThenSend(completingSaved ? undefined : () => a.save(cp), a.opts.beforeBodyComplete);
    completingSaved = true;
  });
  const sent = await send(a, url, apiHeaders(a), body.body, body.length, state);
  const ctx = { channels: a.channels, url, bodyComplete: sent.bodyComplete };
  const result =
    'error' in sent ? classifyTransportError(sent.error, ctx) : classifyResponse(sent.res, ctx);
  if (aborted(a, sent) || result.kind === 'cancelled') {
    if (sent.bodyComplete) return cancelledTooLate();
    await notCompleting();
    return { kind: 'cancelled' };
  }
  if (result.kind === 'delivered') {
    const answer = 'res' in sent ? sent.res.body : '';
    return delivered(group ? sharedFiles(answer, ids) : [sharedFile(answer, cp.fileId)]);
  }
  // Unclear (a lost answer, internal_error, fatal_error…): asked of files.info, never sent again.
  if (result.kind === 'unknown') return lookedFor(result.reason);
  return refused(result, notCompleting);
}

const COMPLETE_METHOD = 'files.completeUploadExternal';

/**
 * The "completing" mark and the "body complete" record, asked for in the same turn so the
 * queue's journal takes them in one write and one fsync (its group commit), rather than one
 * write and fsync after the other: the connection is already up when the body is pulled
 * (transport.ts), so once both are on disk the request's first byte follows at once. Nothing of
 * the body goes until both are durable; a crash between them finds at most one of the two, and
 * either way the request has not left.
 */
async function markThenSend(
  mark: (() => Promise<void>) | undefined,
  bodyComplete: (() => void | Promise<void>) | undefined,
): Promise<void> {
  await Promise.all([mark?.(), bodyComplete?.()]);
}

/** Step 3's form: the files, where they go, and the comment when this message carries it. */
function completionForm(
  a: Attempt,
  start: ExternalCheckpoint,
  group?: readonly { id: string; title: string }[],
): URLSearchParams {
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
  return form;
}

/**
 * After a step 3 whose outcome is unknown: files.info says shared (delivered), or the outcome
 * stays unknown, with why, and nothing is sent again.
 */
async function askWhetherShared(
  a: Attempt,
  ids: string[],
  last: FailureReason | undefined,
): Promise<{ kind: 'shared'; files: ServiceFile[]; infos: FileInfo[] } | AttemptResult> {
  const seen = await lookForShares(a, ids);
  if (a.opts.signal?.aborted) return cancelledTooLate();
  if (seen.kind === 'shared') {
    return { kind: 'shared', files: ids.map((id) => ({ id })), infos: seen.infos };
  }
  return unknownAfterCompleting(
    last?.code ?? 'interrupted_completing',
    `Sharing ${a.name} got no usable answer${last ? ` (${last.code})` : ''}, and ${whyUnclear(a, seen.infos)}. It was not sent again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
  );
}

/** A definite refusal of step 3: this request shared nothing. */
async function refused(
  result: Extract<AttemptResult, { kind: 'failed' }>,
  notCompleting: () => Promise<void>,
): Promise<Completed> {
  const { reason } = result;
  if (reason.code === 'file_not_found') {
    // A definite answer to the only request: the service no longer holds the bytes.
    return {
      startOver: {
        class: 'transient',
        code: 'file_not_found',
        message: `The service no longer holds the uploaded bytes (file_not_found): they expired before the file was shared. ${NOTHING_SHARED}`,
      },
    };
  }
  await notCompleting();
  if (reason.class === 'retired') return retiredHere(reason.code, COMPLETE_METHOD);
  return result;
}

/**
 * Step 3 for several files whose bytes are on the service: one completion, one message, the
 * first job's comment and thread. Its answer, or its unknown outcome, is every file's.
 * `saveAll` journals the files' checkpoints together (marked `group`) before the request goes,
 * and again when it certainly was not carried out. Callers make groups of at most
 * MAX_FILES_PER_COMPLETION.
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
        await markThenSend(
          completingSaved ? undefined : () => saveAll(true),
          opts.beforeBodyComplete,
        );
        completingSaved = true;
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
