// Slack's current upload protocol, the second way to deliver one queued file:
//   1. files.getUploadURLExternal (filename, length)  → upload_url, file_id
//   2. POST the file's bytes to upload_url, streamed   → HTTP 200: received
//   3. files.completeUploadExternal (files, channels, initial_comment) → shared
// Only step 3 shares anything, so the question the engine asks of files.upload ("could the
// service have done it?") is asked of step 3 alone: steps 1 and 2 can always be tried again.
// Slack documents that step 3 completes an upload once, not what a repeat answers, so a step 3
// whose answer was lost is never simply sent again: files.info tells whether the files reached
// their channels (file-links.ts). Only when they clearly did not is step 3 sent again; when it
// cannot be told, the outcome stays unknown. The same question is asked when an item resumes at
// step 3 after a crash, instead of sending its bytes again.
// This file is one queued file's attempt; the steps are upload-bytes.ts (1, 2), complete.ts (3)
// with files.info after it, over request.ts.
import { type AttemptResult, checkedAttempt, type UploadJob } from '../attempt';
import { MAY_BE_DELIVERED } from '../error-messages';
import { complete, wereShared, whyUnclear, withLinks } from './complete';
import {
  type Attempt,
  asExternalCheckpoint,
  DEFAULT_UPLOAD_TTL_MS,
  type ExternalAttemptOptions,
  type ExternalCheckpoint,
  failed,
  normalBase,
  unknownAfterCompleting,
} from './request';
import { uploadBytes } from './upload-bytes';

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
    if (cp.completing && cp.group) {
      // Cut off while its share's message was being sent: asking again for this file alone
      // could post it on its own, so only files.info can settle it.
      const settled = await settleGroupFile(a, cp);
      if ('kind' in settled) return settled;
      cp = settled.cp;
    }
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
 * A file whose group completion was cut off: shared (delivered, with its link), clearly not
 * shared (it goes back to its share, which completes again as one message), or unknown.
 */
async function settleGroupFile(
  a: Attempt,
  cp: ExternalCheckpoint,
): Promise<{ cp: ExternalCheckpoint } | AttemptResult> {
  const seen = await wereShared(a, [cp.fileId]);
  if (seen.kind === 'shared') {
    const [file] = await withLinks(a, [{ id: cp.fileId }], seen.infos);
    return { kind: 'delivered', file: file ?? { id: cp.fileId } };
  }
  if (seen.kind === 'unclear') {
    return unknownAfterCompleting(
      'interrupted_completing_group',
      `Trayshare stopped while sharing ${a.name} together with other files of its share, before the service answered, and ${whyUnclear(seen.infos)}: that message may have been posted. It is not completed again, so it cannot be posted twice. ${MAY_BE_DELIVERED}`,
    );
  }
  const back: ExternalCheckpoint = { ...cp, completing: false };
  delete back.group;
  await a.save(back);
  return { cp: back };
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
