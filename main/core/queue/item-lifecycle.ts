// An item's lifecycle, from its start to its outcome: its attempt runs with hooks into the
// journal, and its outcome is decided (delivered, waiting to try again, needing a token, or
// finished) and journaled before anyone hears of it, then handed to History. The queue
// (upload-queue.ts) owns one: its scheduling pass (pump) picks the items that start now and
// calls start(); the lifecycle calls back for another pass as items end or wait.
import type { FailureReason } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { type RetryPolicy, retryPolicy } from '../upload/retry';
import { cancelNote, decideOnFailure, internalErrorResult } from './failure-policy';
import { type HistoryMarks, historyRecord, writeHistory } from './history-hand-off';
import type { Entry, FinishedState, Run } from './item-store';
import {
  attemptHooks,
  copyItem,
  type ItemStore,
  JournalWriteError,
  shareHooks,
} from './item-store';
import { hasCheckpoint, type ItemMeta, type ItemPatch } from './journal';
import type { QueueDeps } from './queue-api';
import type { QueueEvents } from './queue-events';
import type { Scheduler } from './scheduler';
import type { CompletionRun, ShareGroups } from './share-groups';
import { unrecordedReason, unwritableReason } from './unwritable-journal';

/** The longest wait between tries to write a journal that could not be written. */
const MAX_UNWRITABLE_WAIT_MS = 30_000;

/** The queue's parts an item's lifecycle works with: the queue builds them and shares them. */
export interface LifecycleParts {
  readonly deps: QueueDeps;
  /** The items, in memory and in the journal. */
  readonly store: ItemStore<Entry>;
  /** Told of rate limits, refused tokens and probes that passed. */
  readonly scheduler: Scheduler;
  readonly events: QueueEvents;
  /** Files of one share completed together. */
  readonly groups: ShareGroups<Entry>;
  /** Finished items whose History line waits for its fsync to clear their history-pending mark. */
  readonly marks: HistoryMarks;
  readonly now: () => number;
}

/** What the lifecycle asks of the queue that owns it, as items end or wait. */
export interface OwningQueue {
  /** A scheduling pass: the items that may start now start. */
  pump(): void;
  /** Scheduling passes run so far (see attempt: a pass while an item settles is its pass). */
  passes(): number;
  /** Wakes whoever waits for the queue to be settled, when it is. */
  checkWaiters(): void;
  /** Compacts the journal once it has grown (not while the queue closes). */
  compactIfLarge(): Promise<void>;
}

export class ItemLifecycle {
  private readonly deps: QueueDeps;
  private readonly store: ItemStore<Entry>;
  private readonly scheduler: Scheduler;
  private readonly events: QueueEvents;
  private readonly groups: ShareGroups<Entry>;
  private readonly marks: HistoryMarks;
  private readonly now: () => number;
  private readonly policy: RetryPolicy;
  /** Finishing items whose journal and history writes are still under way. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    parts: LifecycleParts,
    private readonly queue: OwningQueue,
  ) {
    this.deps = parts.deps;
    this.store = parts.store;
    this.scheduler = parts.scheduler;
    this.events = parts.events;
    this.groups = parts.groups;
    this.marks = parts.marks;
    this.now = parts.now;
    this.policy = retryPolicy(parts.deps.retry);
  }

  /** Whether finishing items still have journal or History writes under way. */
  writesUnderway(): boolean {
    return this.writing.size > 0;
  }

  /** Settles once the writes under way now are done, whatever their outcome. */
  writesDone(): Promise<unknown> {
    return Promise.allSettled([...this.writing]);
  }

  /** Starts the item's attempt (or the record of an outcome the journal could not take yet). */
  start(entry: Entry): void {
    const { item } = entry;
    const controller = new AbortController();
    const run: Run = { controller, cancel: false, closing: false, done: Promise.resolve() };
    entry.run = run;
    if (entry.unrecorded) {
      // Its outcome is known: only the record is missing. Nothing is sent again.
      const { state, patch } = entry.unrecorded;
      this.store.apply(entry, { state: 'sending', retryAt: null });
      run.done = this.finish(entry, state, { error: null, ...patch }).finally(() => {
        if (entry.run === run) entry.run = undefined;
        this.queue.pump();
        this.queue.checkWaiters();
      });
      return;
    }
    const marked = this.update(
      entry,
      { state: 'sending', attempts: item.attempts + 1, sent: 0, retryAt: null, error: null },
      { bodySent: false },
      false,
    );
    run.done = this.attempt(entry, run, marked);
  }

  private async attempt(entry: Entry, run: Run, marked: Promise<void>): Promise<void> {
    let result: AttemptResult;
    if (entry.unwritableTries) {
      // Held because the journal could not be written: no byte goes again before it can take
      // a record (the attempt would only be cut off again, its bytes sent for nothing).
      try {
        await marked;
        entry.unwritableTries = 0;
      } catch (err) {
        if (err instanceof JournalWriteError) {
          entry.run = undefined;
          this.holdUnwritable(entry, err);
          this.queue.checkWaiters();
          return;
        }
      }
    } else {
      marked.catch(() => {});
    }
    try {
      result = await this.deps.runAttempt(
        copyItem(entry.item),
        attemptHooks(entry, run, {
          store: this.store,
          progressed: () => this.events.progressed(),
          ...(this.completesTogether(entry)
            ? {
                handOver: () => {
                  const result = this.groups.handOver(entry, run.controller.signal);
                  this.queue.pump();
                  this.queue.checkWaiters();
                  return result;
                },
              }
            : {}),
        }),
      );
    } catch (err) {
      if (err instanceof JournalWriteError && !entry.meta.bodySent) {
        // The journal could not take a checkpoint or "body complete", which the attempt waits
        // for before the request can share anything: nothing was shared; it goes again later
        // (or ends cancelled, if the person asked).
        entry.run = undefined;
        try {
          if (run.cancel) await this.finish(entry, 'cancelled', {});
          else if (!run.closing) this.holdUnwritable(entry, err);
        } finally {
          this.queue.pump();
          this.queue.checkWaiters();
        }
        return;
      }
      result = internalErrorResult(err, entry.meta.bodySent);
    }
    entry.run = undefined;
    const passes = this.queue.passes();
    try {
      await this.settle(entry, run, result);
    } finally {
      // A pass that ran while the item settled saw it settled (its outcome, or its wait, is
      // applied in memory before anything is awaited): the finish of an outcome runs its own
      // once the outcome is on disk, and a second one here, after History's line, was half the
      // queue's passes with nothing new to start (500 x 10 KiB, bench/small-files.ts).
      if (this.queue.passes() === passes) this.queue.pump();
      this.queue.checkWaiters();
    }
  }

  private async settle(entry: Entry, run: Run, result: AttemptResult): Promise<void> {
    const { item } = entry;
    if (run.closing && result.kind !== 'delivered' && result.kind !== 'unknown') {
      // Left as journaled ('sending'): the next open re-sends it or marks it unknown.
      return;
    }
    if (run.closing && result.kind === 'unknown' && hasCheckpoint(entry.meta)) {
      // Cut off by the close while its outcome was still being found out: the next open goes
      // on from the checkpoint, which can find out (see AttemptHooks.checkpoint).
      return;
    }
    switch (result.kind) {
      case 'delivered':
        this.scheduler.passed(item.workspaceId);
        await this.finish(entry, 'delivered', { file: result.file, sent: item.size });
        return;
      case 'unknown':
        // The person's cancel wins the state; the reason still says it may have been delivered.
        await this.finish(entry, run.cancel ? 'cancelled' : 'unknown', { error: result.reason });
        return;
      case 'cancelled':
        await this.finish(entry, 'cancelled', {
          error: cancelNote(entry.meta.bodySent, run.cancel),
        });
        return;
      case 'failed':
        if (run.cancel) {
          await this.finish(entry, 'cancelled', {
            error: cancelNote(entry.meta.bodySent, run.cancel),
          });
          return;
        }
        await this.failed(entry, result.reason);
    }
  }

  private completesTogether(entry: Entry): boolean {
    if (!this.deps.completeShare) return false;
    // Another file of its share is still in the queue (this one is).
    return this.store.shareSize(entry.item.shareId) > 1;
  }

  /** One completion of a group of handed-over files, journaled for all of them at once. */
  completeShare(group: Entry[], run: CompletionRun): Promise<AttemptResult[]> {
    const complete = this.deps.completeShare;
    if (!complete) throw new Error('This queue does not complete files together.');
    return complete(
      group.map((e) => copyItem(e.item)),
      shareHooks(group, run, this.store),
    );
  }

  private async failed(entry: Entry, reason: FailureReason): Promise<void> {
    const ws = entry.item.workspaceId;
    // One instant for the decision and the item's updatedAt, so retryAt - updatedAt is the wait.
    const now = this.now();
    const decision = decideOnFailure(reason, entry.meta, {
      policy: this.policy,
      now,
      ...(this.deps.maxRateLimitWaits !== undefined
        ? { maxRateLimitWaits: this.deps.maxRateLimitWaits }
        : {}),
    });
    switch (decision.action) {
      case 'rate-limit': {
        const { retryAt, isNew } = this.scheduler.rateLimited(ws, decision.until, now);
        if (isNew) {
          void this.store
            .append([{ t: 'pause', workspaceId: ws, until: decision.until }], false)
            .catch(() => {});
        }
        await this.note(
          entry,
          { state: 'waiting', retryAt, error: reason, updatedAt: now },
          decision.meta,
        );
        return;
      }
      case 'retry':
        await this.note(
          entry,
          { state: 'waiting', retryAt: decision.retryAt, error: reason, updatedAt: now },
          decision.meta,
        );
        return;
      case 'needs-token': {
        const first = this.scheduler.needToken(ws);
        await this.note(entry, { state: 'waiting', retryAt: null, error: reason }, undefined);
        if (first) this.events.needsToken({ workspaceId: ws, message: reason.message });
        return;
      }
      case 'finish':
        await this.finish(entry, decision.state, { error: reason });
    }
  }

  // ---- state changes ----

  /**
   * A wait journaled without fsync. If the journal cannot take it, the item still waits: a
   * restart finds it queued or sending, and goes on from there as after any interruption.
   */
  private async note(entry: Entry, patch: ItemPatch, meta: Partial<ItemMeta> | undefined) {
    await this.update(entry, patch, meta, false).catch((err: unknown) => {
      if (!(err instanceof JournalWriteError)) throw err;
    });
  }

  /** Applies a change in memory, tells listeners, and journals it. */
  update(
    entry: Entry,
    patch: ItemPatch,
    meta: Partial<ItemMeta> | undefined,
    sync: boolean,
  ): Promise<void> {
    const journaled = this.store.update(entry, patch, meta, sync);
    this.events.changed();
    return journaled;
  }

  /**
   * Journals the outcome, then makes it known (listeners, the share's other files, history). An
   * outcome the journal cannot take is held: the item waits and its record is tried again, so
   * nothing reports an outcome that a restart would not find.
   */
  finish(entry: Entry, state: FinishedState, patch: ItemPatch): Promise<void> {
    entry.finishing = true;
    const work = (async () => {
      const change: ItemPatch = { ...patch, state, retryAt: null };
      const meta = { finishes: entry.meta.finishes + 1, historyPending: true, resume: null };
      try {
        await this.store.commit(entry, change, meta, true);
      } catch (err) {
        if (err instanceof JournalWriteError) {
          entry.finishing = false;
          this.holdUnrecorded(entry, err, { state, patch });
          return;
        }
        // Not the disk (the journal is closing): the outcome stands in memory, as it always did.
        this.store.apply(entry, { updatedAt: this.now(), ...change }, meta);
      }
      entry.finishing = false;
      entry.unrecorded = undefined;
      entry.unwritableTries = 0;
      this.events.changed();
      // The outcome is on disk: the next file starts now, not once History has the line too.
      this.queue.pump();
      // The rest of its share may have been waiting for this one to end.
      this.groups.check(entry.item.shareId);
      // Taken now: the person may retry the item before the writes below are done.
      const record = this.historyRecord(entry);
      const item = copyItem(entry.item);
      await this.writeHistory(entry, record);
      this.events.finished(item);
    })();
    this.writing.add(work);
    return work.finally(() => {
      entry.finishing = false;
      this.writing.delete(work);
      this.queue.checkWaiters();
    });
  }

  /** The journal cannot be written: the item waits (in memory), and tries again later. */
  private holdUnwritable(entry: Entry, err: JournalWriteError): void {
    this.holdFor(entry, unwritableReason(err));
  }

  private holdUnrecorded(
    entry: Entry,
    err: JournalWriteError,
    unrecorded: NonNullable<Entry['unrecorded']>,
  ): void {
    entry.unrecorded = unrecorded;
    this.holdFor(
      entry,
      unrecordedReason(err, entry.item.name, unrecorded.state, entry.meta.bodySent),
    );
  }

  private holdFor(entry: Entry, error: FailureReason): void {
    const tries = (entry.unwritableTries ?? 0) + 1;
    entry.unwritableTries = tries;
    const wait = Math.min(1000 * 2 ** (tries - 1), MAX_UNWRITABLE_WAIT_MS);
    this.store.apply(entry, { state: 'waiting', retryAt: this.now() + wait, error });
    this.events.changed();
    this.queue.pump();
  }

  private historyRecord(entry: Entry) {
    return historyRecord(entry, this.deps.workspaceName);
  }

  /** Writes the finished item's History line (its record taken now, unless given). */
  writeHistory(entry: Entry, record = this.historyRecord(entry)): Promise<void> {
    return writeHistory(entry, record, {
      history: this.deps.history,
      marks: this.marks,
      compact: () => this.queue.compactIfLarge(),
    });
  }
}
