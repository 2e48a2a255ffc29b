// What one attempt, or one completion of a share's files, is given to reach the journal: its
// progress, "body complete", its checkpoints and the hand-over to its share. Each hook refuses
// to act for an attempt that is over, so a late callback cannot change a newer attempt's record.
import type { FailureReason } from '../model';
import type { AttemptResult } from '../upload/attempt';
import type { Entry, ItemStore, Run } from './item-store';
import { hasCheckpoint } from './journal';
import type { AttemptHooks, ShareHooks } from './queue-api';
import type { CompletionRun } from './share-groups';

export function attemptHooks(
  entry: Entry,
  run: Run,
  queue: {
    store: ItemStore<Entry>;
    progressed: () => void;
    /** Given when the item's share completes together: hands the item over to it. */
    handOver?: () => Promise<AttemptResult>;
  },
): AttemptHooks {
  const over = () => entry.run !== run;
  const { handOver } = queue;
  return {
    signal: run.controller.signal,
    onProgress: (sent) => {
      if (over()) return;
      queue.store.progress(entry, sent);
      queue.progressed();
    },
    beforeBodyComplete: async () => {
      if (over()) throw new Error('This attempt is over.');
      await queue.store.bodyComplete([entry]);
    },
    ...(hasCheckpoint(entry.meta) ? { resume: structuredClone(entry.meta.resume) } : {}),
    checkpoint: async (data) => {
      if (over()) throw new Error('This attempt is over.');
      const resume = data === undefined ? null : structuredClone(data);
      await queue.store.setMeta([[entry, { resume }]], true);
    },
    ...(handOver
      ? {
          awaitShare: () => {
            if (over()) throw new Error('This attempt is over.');
            return handOver();
          },
        }
      : {}),
  };
}

/** One completion of a group of handed-over files, journaled for all of them at once. */
export function shareHooks(
  group: Entry[],
  run: CompletionRun,
  store: ItemStore<Entry>,
): ShareHooks {
  return {
    signal: run.controller.signal,
    resumes: group.map((e) => structuredClone(e.meta.resume)),
    checkpoint: (data) =>
      store.setMeta(
        group.map((e, i) => [e, { resume: data[i] == null ? null : structuredClone(data[i]) }]),
        true,
      ),
    beforeBodyComplete: async () => {
      await store.bodyComplete(group);
      run.bodySent = true;
    },
    withComment: run.withComment,
  };
}

/** An attempt that threw: "may have been delivered" once its whole body went, else failed. */
export function internalErrorResult(err: unknown, bodySent: boolean): AttemptResult {
  const why = err instanceof Error ? err.message : String(err);
  return bodySent
    ? {
        kind: 'unknown',
        reason: {
          class: 'unknown-outcome',
          code: 'internal_error',
          message: `The upload stopped with an internal error after the whole file was sent, so it may have been delivered: ${why}`,
        },
      }
    : {
        kind: 'failed',
        reason: {
          class: 'other',
          code: 'internal_error',
          message: `The upload stopped with an internal error: ${why}`,
        },
      };
}

/** Why a stopped attempt ended: nothing for the person's own cancel before the body went. */
export function cancelNote(bodySent: boolean, cancelledByPerson: boolean): FailureReason | null {
  if (!bodySent) {
    return cancelledByPerson
      ? null
      : {
          class: 'other',
          code: 'aborted',
          message: 'The upload was stopped before the whole file was sent.',
        };
  }
  return {
    class: 'unknown-outcome',
    code: 'cancelled_after_body',
    message:
      'Cancelled after the whole file was sent: the service may have received it. Check the channels before sending it again.',
  };
}
