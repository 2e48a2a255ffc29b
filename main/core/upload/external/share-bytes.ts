// Steps 1–2 for every file of a share outside the queue (the CLI's direct mode). Every file's
// upload address is asked for at once, at most STEP_ONE_IN_FLIGHT requests open; each file's
// bytes go as soon as the byte budget has room for it (byte-budget.ts: the concurrency setting
// counts slots of bytes in flight, so small files go wide and large ones narrow) and its
// address is in. The setting bounds the byte uploads only, what uses the person's bandwidth: a step-1
// request is a few hundred bytes each way, and waiting for it inside a byte slot left the link
// idle for a round trip per file. Steps 1–2 share nothing, so running them side by side cannot
// post anything twice; a failed try asks for a new address (transient failures are tried again).

import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type AttemptResult, type RetryOptions, retryTransient, type UploadJob } from '../attempt';
import { byteBudget } from './byte-budget';
import { gate } from './gate';
import {
  attemptOf,
  type ExternalAttemptOptions,
  failed,
  STEP_ONE_IN_FLIGHT,
  type UploadTicket,
} from './request';
import { askAhead, uploadBytes } from './send-file';

/** A file whose bytes the service holds: completed by the caller. */
export interface BytesIn {
  fileId: string;
  uploadedAt: number;
}

export type ShareBytesOptions = ExternalAttemptOptions &
  RetryOptions & {
    /** A file's bytes start going (its byte slot is free). */
    onFile?: (index: number) => void;
  };

/** One result per job, in order: the file_id of bytes the service holds, or why not. */
export async function uploadShareBytes(
  jobs: readonly UploadJob[],
  opts: ShareBytesOptions,
): Promise<(BytesIn | AttemptResult)[]> {
  const stepOne = gate(STEP_ONE_IN_FLIGHT);
  const bytes = byteBudget(opts.concurrency ?? 1);
  const withGate: ExternalAttemptOptions = { ...opts, stepOneGate: stepOne };
  return Promise.all(
    jobs.map(async (job, index) => {
      // Anything thrown here is thrown again by the try's own step 1, where it is reported.
      let ahead: Promise<UploadTicket | AttemptResult | undefined> | undefined = askAhead(
        job,
        withGate,
      ).catch(() => undefined);
      // The address asked for ahead serves the first try only; a try after a failure asks anew.
      const take = () => {
        const t = ahead;
        ahead = undefined;
        return t ?? Promise.resolve(undefined);
      };
      let done: BytesIn | undefined;
      const result = await retryTransient(async () => {
        const a = attemptOf(job, { ...withGate, uploadTicket: take });
        if ('kind' in a) return a;
        // A byte slot is taken only once there is an address to send to.
        await ahead;
        return bytes(await sizeOf(job, opts.blockingReads === true), async () => {
          opts.onFile?.(index);
          let restarted = false;
          for (;;) {
            const sent = await uploadBytes(a);
            if ('restart' in sent) {
              if (restarted) return failed(sent.restart);
              restarted = true;
              continue;
            }
            if ('kind' in sent) return sent;
            done = { fileId: sent.fileId, uploadedAt: a.now() };
            return { kind: 'delivered', file: { id: sent.fileId } } as AttemptResult;
          }
        });
      }, opts);
      return result.kind === 'delivered' && done ? done : result;
    }),
  );
}

/** The file's size for the byte budget; unreadable counts as large (its try reports why). */
async function sizeOf(job: UploadJob, blocking: boolean): Promise<number> {
  if (job.file.expectedSize !== undefined) return job.file.expectedSize;
  try {
    return (blocking ? statSync(job.file.path) : await stat(job.file.path)).size;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
