// Step 3 of the external protocol, the only one that shares anything: files.completeUploadExternal
// for one file or for a group (one message). Slack documents that it completes an upload once,
// not what a repeat answers, so a step 3 whose answer was lost is never simply sent again:
// files.info (below) tells whether the files reached their channels first.

import { apiUrl } from '../../../portable/credentials';
import type { FailureReason, ServiceFile } from '../../model';
import { defaultSleep } from '../../sleep';
import {
  type AttemptResult,
  cancelledTooLate,
  eachAtMost,
  type UploadJob,
  withoutToken,
} from '../attempt';
import { classifyResponse, classifyTransportError, serviceFile } from '../classify';
import { MAY_BE_DELIVERED } from '../error-messages';
import { type FileInfo, readFileInfo, sharedVerdict, withLink } from '../file-links';
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

const DEFAULT_COMPLETE_ATTEMPTS = 3;

/** At most this many files per completion (the contract's bound): one message each. */
export const MAX_FILES_PER_COMPLETION = 10;

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

  // True once a request of ours may have completed these files without our hearing the answer.
  let mayBeDone = start.completing;
  // True once files.info said "not shared" and step 3 went again: a refusal now may mean the
  // earlier request did share them after all.
  let askedAgain = false;
  const cp: ExternalCheckpoint = { ...start, completing: true };
  // Journaled just before the request's body goes: a crash before that point certainly sent
  // nothing, and the file goes on at step 3 without asking first.
  let completingSaved = start.completing;
  const notCompleting = () => a.save({ ...cp, completing: false });

  const most = Math.max(1, Math.floor(a.opts.completeAttempts ?? DEFAULT_COMPLETE_ATTEMPTS));
  let hooked = false;
  let last: FailureReason | undefined;
  for (let n = 1; ; n++) {
    if (mayBeDone) {
      const seen = await askBeforeAgain(a, ids, { tooMany: n > most, most, last });
      if (seen.kind === 'shared') return delivered(seen.files, seen.infos);
      if (seen.kind !== 'not-shared') return seen;
      // Clearly not shared: the lost request did nothing, so sending it again is safe.
      mayBeDone = false;
      askedAgain = true;
    }
    const state = { bodyComplete: false };
    const body = formBody(form, state, async () => {
      if (!completingSaved) await a.save(cp);
      completingSaved = true;
      if (hooked) return;
      await a.opts.beforeBodyComplete?.();
      hooked = true;
    });
    const sent = await send(a, url, apiHeaders(a), body.body, body.length, state);
    const ctx = { channels: a.channels, url, bodyComplete: sent.bodyComplete };
    const result =
      'error' in sent ? classifyTransportError(sent.error, ctx) : classifyResponse(sent.res, ctx);
    if (aborted(a, sent) || result.kind === 'cancelled') {
      if (askedAgain || sent.bodyComplete) return cancelledTooLate();
      await notCompleting();
      return { kind: 'cancelled' };
    }
    if (result.kind === 'delivered') {
      const answer = 'res' in sent ? sent.res.body : '';
      return delivered(group ? sharedFiles(answer, ids) : [sharedFile(answer, cp.fileId)]);
    }
    if (result.kind === 'unknown') {
      // Asked of files.info at the top of the loop, never simply sent again.
      mayBeDone = true;
      last = result.reason;
      continue;
    }
    return refused(a, result, { askedAgain, last, notCompleting });
  }
}

const COMPLETE_METHOD = 'files.completeUploadExternal';

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
 * Before step 3 goes again after a request of ours may have completed the files: files.info
 * says shared (delivered), clearly not shared (send again), or cannot tell (unknown).
 */
async function askBeforeAgain(
  a: Attempt,
  ids: string[],
  p: { tooMany: boolean; most: number; last: FailureReason | undefined },
): Promise<
  | { kind: 'shared'; files: ServiceFile[]; infos: FileInfo[] }
  | { kind: 'not-shared' }
  | AttemptResult
> {
  const seen = await wereShared(a, ids);
  if (a.opts.signal?.aborted) return cancelledTooLate();
  if (seen.kind === 'shared') {
    return { kind: 'shared', files: ids.map((id) => ({ id })), infos: seen.infos };
  }
  if (seen.kind === 'unclear' || p.tooMany) {
    const why =
      seen.kind === 'unclear'
        ? whyUnclear(seen.infos)
        : `files.info still lists it as not shared after ${p.most} requests`;
    const { last } = p;
    return unknownAfterCompleting(
      last?.code ?? 'interrupted_completing',
      `Sharing ${a.name} got no usable answer${last ? ` (${last.code})` : ''}, and ${why}. It was not sent again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
    );
  }
  return { kind: 'not-shared' };
}

/** A definite refusal of step 3, read for what it means after what was asked before it. */
async function refused(
  a: Attempt,
  result: Extract<AttemptResult, { kind: 'failed' }>,
  p: { askedAgain: boolean; last: FailureReason | undefined; notCompleting: () => Promise<void> },
): Promise<Completed> {
  const { last } = p;
  const { reason } = result;
  if (p.askedAgain && reason.class !== 'transient') {
    // files.info said "not shared", yet the service refuses now (file_not_found, say): the
    // earlier request may have shared it after all. A refusal is never read as "done".
    return unknownAfterCompleting(
      reason.code,
      `An earlier request sharing ${a.name} got no answer${last ? ` (${last.code})` : ''}; the service then listed it as not shared, but refused to share it now: ${reason.message} ${MAY_BE_DELIVERED}`,
    );
  }
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
  // A definite answer: this request shared nothing (and any earlier one was seen not to).
  await p.notCompleting();
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
        if (!completingSaved) await saveAll(true);
        completingSaved = true;
        await opts.beforeBodyComplete?.();
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

// After a step 3 whose answer was lost, and for links Slack's answer leaves out: files.info
// says whether each file reached its channels (file-links.ts reads its answer).

const DEFAULT_SHARE_CHECK_DELAY_MS = 1000;

/** One files.info request; any failure to get an answer is "unreadable", never thrown. */
async function askFileInfo(a: Attempt, fileId: string): Promise<FileInfo> {
  const url = apiUrl(a.base, 'files.info');
  const state = { bodyComplete: false };
  const form = formBody(new URLSearchParams({ file: fileId }), state);
  const sent = await send(a, url, apiHeaders(a), form.body, form.length, state);
  if ('error' in sent) return { kind: 'unreadable', code: sent.error.code };
  return readFileInfo(sent.res);
}

/**
 * files.info for each file, all at once (a group is at most MAX_FILES_PER_COMPLETION files, and
 * files.info is Tier 4, 100+ a minute): the links are ready one round trip after the message,
 * not one per file. The answers end at the first "no scope", as asking one by one would leave
 * them (a token without files:read costs the group's few requests once, not a round trip more).
 */
async function askAll(a: Attempt, ids: readonly string[]): Promise<FileInfo[]> {
  const infos: FileInfo[] = new Array(ids.length);
  await eachAtMost(ids.length, MAX_FILES_PER_COMPLETION, async (i) => {
    infos[i] = await askFileInfo(a, ids[i]!);
  });
  const noScope = infos.findIndex((i) => i.kind === 'no-scope');
  if (noScope >= 0) {
    infos.length = noScope + 1;
    a.opts.onLinksUnavailable?.();
  }
  return infos;
}

/**
 * The files were shared: each gets its permalink and message ts from files.info when the
 * completion's answer had none (Slack's documented answer has none). A link that cannot be had
 * leaves the file delivered without one.
 */
export async function withLinks(
  a: Attempt,
  files: ServiceFile[],
  known?: readonly FileInfo[],
): Promise<ServiceFile[]> {
  if (a.opts.signal?.aborted) return files;
  const missing = files.filter((f) => !f.permalink && f.id);
  if (missing.length === 0) return files;
  const infos =
    known ??
    (await askAll(
      a,
      missing.map((f) => f.id!),
    ));
  const byId = new Map<string, FileInfo>();
  const ids = known ? files.map((f) => f.id) : missing.map((f) => f.id);
  for (const [i, info] of infos.entries()) {
    const id = ids[i];
    if (id) byId.set(id, info);
  }
  return files.map((f) => {
    const info = f.id ? byId.get(f.id) : undefined;
    return info ? withLink(f, info, a.channels) : f;
  });
}

type Verdict =
  | { kind: 'shared'; infos: FileInfo[] }
  | { kind: 'not-shared' }
  | { kind: 'unclear'; infos?: FileInfo[] };

/**
 * After a step 3 whose answer was lost: did it share the files? Asked of files.info's
 * `shares`. "Not shared" must hold twice, a moment apart, since a share may be listed late:
 * sending step 3 again on a wrong "not shared" would post the files twice.
 */
export async function wereShared(a: Attempt, ids: readonly string[]): Promise<Verdict> {
  const sleep = a.opts.sleep ?? defaultSleep;
  for (let look = 1; ; look++) {
    const infos = await askAll(a, ids);
    const verdict = infos.length === ids.length ? sharedVerdict(infos, a.channels) : 'unclear';
    if (verdict === 'shared') return { kind: 'shared', infos };
    if (verdict === 'unclear') return { kind: 'unclear', infos };
    if (look === 2) return { kind: 'not-shared' };
    try {
      await sleep(a.opts.shareCheckDelayMs ?? DEFAULT_SHARE_CHECK_DELAY_MS, a.opts.signal);
    } catch (error) {
      if (a.opts.signal?.aborted) return { kind: 'unclear' };
      throw error;
    }
  }
}

export function whyUnclear(infos: readonly FileInfo[] | undefined): string {
  if (infos?.some((i) => i.kind === 'no-scope')) {
    return 'the token lacks the files:read scope, so Trayshare cannot ask whether it was shared';
  }
  return 'asking the service whether it was shared (files.info) gave no clear answer';
}
