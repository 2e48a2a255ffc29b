// Steps 1–2 for every file of a share outside the queue (the CLI's direct mode). Every file's
// upload address is asked for at once, at most STEP_ONE_IN_FLIGHT requests open; each file's
// bytes go as soon as one of `concurrency` byte slots is free and its address is in. The
// concurrency setting bounds the byte uploads only, what uses the person's bandwidth: a step-1
// request is a few hundred bytes each way, and waiting for it inside a byte slot left the link
// idle for a round trip per file. Steps 1–2 share nothing, so running them side by side cannot
// post anything twice; a failed try asks for a new address (transient failures are tried again).
import { type AttemptResult, type RetryOptions, retryTransient, type UploadJob } from '../attempt';
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
  const bytes = gate(opts.concurrency ?? 1);
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
        return bytes(async () => {
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
