// The CLI's direct mode on Slack's external protocol (`send --base-url … --protocol external`):
// no queue, so the files are uploaded here (share-bytes.ts: every upload address asked for at
// once, byte uploads by bytes in flight within the app's concurrency setting, byte-budget.ts), with transient failures
// tried again, then completed in groups through the same completion the
// queue uses. Steps 1–2 share nothing, so running them side by side cannot post anything
// twice; step 3, which shares, stays one call per group, in file order.
import {
  type AttemptResult,
  type RetryOptions,
  retryTransient,
  type UploadJob,
} from '../core/upload/attempt';
import { completeExternalShare } from '../core/upload/external/complete';
import {
  type ExternalAttemptOptions,
  MAX_FILES_PER_COMPLETION,
  normalBase,
} from '../core/upload/external/request';
import { uploadShareBytes } from '../core/upload/external/share-bytes';

/**
 * For scripts: a share of several files as one message per group of at most 10. Steps 1 and 2
 * go per file, within the setting's byte budget (transient failures tried again); then one
 * completion per group with the one comment. A file whose bytes could not be sent fails alone;
 * a completion whose answer is lost leaves the whole group "may have been delivered", and it is
 * never completed again.
 */
export async function uploadExternalGroup(
  jobs: readonly UploadJob[],
  opts: ExternalAttemptOptions & RetryOptions & { onFile?: (index: number) => void },
): Promise<AttemptResult[]> {
  const results: AttemptResult[] = new Array(jobs.length);
  const uploaded: { index: number; fileId: string; uploadedAt: number }[] = [];
  for (const [index, sent] of (await uploadShareBytes(jobs, opts)).entries()) {
    if ('kind' in sent) results[index] = sent;
    else uploaded.push({ index, ...sent });
  }
  // Finished in any order; the message lists the files in the order they were given.
  uploaded.sort((a, b) => a.index - b.index);
  // The share's comment goes with its first message only: once a group was (or may have been)
  // posted, the later groups go without it.
  let commented = false;
  for (let start = 0; start < uploaded.length; start += MAX_FILES_PER_COMPLETION) {
    const members = uploaded.slice(start, start + MAX_FILES_PER_COMPLETION);
    let outcomes: AttemptResult[] = [];
    await retryTransient(async () => {
      outcomes = await completeExternalShare(
        members.map((m) => jobs[m.index]!),
        members.map((m) => ({
          protocol: 'external',
          baseUrl: normalBase(jobs[m.index]!.baseUrl),
          fileId: m.fileId,
          uploadedAt: m.uploadedAt,
          completing: false,
        })),
        { ...opts, withComment: !commented },
      );
      return outcomes[0]!;
    }, opts);
    for (const [i, m] of members.entries()) results[m.index] = outcomes[i]!;
    if (outcomes.some((o) => o.kind === 'delivered' || o.kind === 'unknown')) commented = true;
  }
  return results;
}
