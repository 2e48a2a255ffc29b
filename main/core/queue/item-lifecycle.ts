// The item's lifecycle: an item is started, its attempt runs with hooks into the journal, and
// its outcome is decided (delivered, waiting to try again, needing a token, or finished) and
// journaled before anyone hears of it, then handed to History. The queue's public side
// (upload-queue.ts) builds on it.
import type { FailureReason, QueueItem } from '../model';
import { defaultSleep } from '../sleep';
import type { AttemptResult } from '../upload/attempt';
import { type RetryPolicy, retryPolicy } from '../upload/retry';
import { cancelNote, decideOnFailure, internalErrorResult } from './failure-policy';
import { HistoryMarks, historyRecord, writeHistory } from './history-hand-off';
import type { Entry, FinishedState, Run } from './item-store';
import { attemptHooks, copyItem, ItemStore, JournalWriteError, shareHooks } from './item-store';
import { hasCheckpoint, type ItemMeta, type ItemPatch } from './journal';
import type { QueueDeps } from './queue-api';
import { QueueEvents, SettleWatch } from './queue-events';
import { Scheduler } from './scheduler';
import { type CompletionRun, ShareGroups } from './share-groups';
import { unrecordedReason, unwritableReason } from './unwritable-journal';

/** The longest wait between tries to write a journal that could not be written. */
const MAX_UNWRITABLE_WAIT_MS = 30_000;

export abstract class ItemLifecycle {
  protected readonly store: ItemStore<Entry>;
  protected readonly scheduler: Scheduler;
  protected readonly events = new QueueEvents(() => this.store.sharedItems());
  protected readonly groups = new ShareGroups<Entry>({
    members: (shareId) => this.store.shareItems(shareId),
    complete: (group, run) => this.completeShare(group, run),
  });
  /** Finished items whose History line waits for its fsync to clear their history-pending mark. */
  protected readonly marks: HistoryMarks;
  protected readonly policy: RetryPolicy;
  protected readonly now: () => number;
  protected globalPause: boolean;
  protected closing = false;
  /** Ends the work QueueDeps.prepare started: aborted when the queue closes. */
  protected readonly preparing = new AbortController();
  /** Items prepared since they last started (each is prepared once while it waits). */
  private readonly prepared = new WeakSet<QueueItem>();
  /** Scheduling passes run so far (see attempt: a pass while an item settles is its pass). */
  private passes = 0;

  /** Finishing items whose journal and history writes are still under way. */
  protected readonly writing = new Set<Promise<void>>();
  protected readonly watch = new SettleWatch(() => this.checkWaiters());

  constructor(protected readonly deps: QueueDeps) {
    this.policy = retryPolicy(deps.retry);
    this.now = deps.now ?? Date.now;
    this.globalPause = deps.startPaused ?? false;
    this.scheduler = new Scheduler(deps.sleep ?? defaultSleep, () => this.pump());
    this.store = new ItemStore<Entry>(
      deps.dir,
      this.now,
      () => this.scheduler.pauses(),
      deps.compactAfterRecords ?? 1000,
    );
    this.marks = new HistoryMarks(deps.history, this.store, () => this.compactIfLarge());
  }

  list(): QueueItem[] {
    return [...this.store.values()].map((e) => this.copy(e.item));
  }

  /** Wakes whoever waits for the queue to be settled, when it is. */
  protected abstract checkWaiters(): void;

  // ---- scheduling ----

  protected pump(): void {
    if (this.closing) return;
    this.passes++;
    const noSlot: QueueItem[] = [];
    const start = this.scheduler.pick(this.startable(), {
      now: this.now(),
      limit: () => Math.max(1, Math.floor(this.deps.concurrency())),
      paused: this.globalPause,
      // A file waiting for the rest of its share gave its slot back.
      holdsNoSlot: (item) => this.groups.isWaiting(item),
      sending: this.sendingNow(),
      workspaces: this.store.workspacesToStart(),
      ...(this.deps.prepare ? { noSlot: (item: QueueItem) => noSlot.push(item) } : {}),
    });
    for (const entry of start) this.start(entry);
    this.prepareWaiting(noSlot);
  }

  /** Files of shares that complete together, waiting only for a slot (QueueDeps.prepare). */
  private prepareWaiting(items: QueueItem[]): void {
    const prepare = this.deps.prepare;
    // Each pump names every item waiting for a slot; most were prepared by an earlier pump, and
    // counting the share's files for them again would grow with the queue.
    const fresh = items.filter((item) => !this.prepared.has(item));
    if (!prepare || fresh.length === 0) return;
    for (const item of fresh) {
      if (this.store.shareSize(item.shareId) < 2) continue;
      this.prepared.add(item);
      prepare(this.copy(item), this.preparing.signal);
    }
  }

  protected *startable(): Generator<Entry> {
    for (const entry of this.store.openItems()) if (!entry.finishing) yield entry;
  }

  /** Items sending whose outcome is not being journaled (those hold no slot any more). */
  private *sendingNow(): Generator<QueueItem> {
    for (const entry of this.store.sendingItems()) if (!entry.finishing) yield entry.item;
  }

  protected start(entry: Entry): void {
    const { item } = entry;
    this.prepared.delete(item);
    const controller = new AbortController();
    const run: Run = { controller, cancel: false, closing: false, done: Promise.resolve() };
    entry.run = run;
    if (entry.unrecorded) {
      // Its outcome is known: only the record is missing. Nothing is sent again.
      const { state, patch } = entry.unrecorded;
      this.store.apply(entry, { state: 'sending', retryAt: null });
      run.done = this.finish(entry, state, { error: null, ...patch }).finally(() => {
        if (entry.run === run) entry.run = undefined;
        this.pump();
        this.checkWaiters();
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

  protected async attempt(entry: Entry, run: Run, marked: Promise<void>): Promise<void> {
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
          this.checkWaiters();
          return;
        }
      }
    } else {
      marked.catch(() => {});
    }
    try {
      result = await this.deps.runAttempt(
        this.copy(entry.item),
        attemptHooks(entry, run, {
          store: this.store,
          progressed: () => this.events.progressed(),
          ...(this.completesTogether(entry)
            ? {
                handOver: () => {
                  const result = this.groups.handOver(entry, run.controller.signal);
                  this.pump();
                  this.checkWaiters();
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
          this.pump();
          this.checkWaiters();
        }
        return;
      }
      result = internalErrorResult(err, entry.meta.bodySent);
    }
    entry.run = undefined;
    const passes = this.passes;
    try {
      await this.settle(entry, run, result);
    } finally {
      // A pass that ran while the item settled saw it settled (its outcome, or its wait, is
      // applied in memory before anything is awaited): the finish of an outcome runs its own
      // once the outcome is on disk, and a second one here, after History's line, was half the
      // queue's passes with nothing new to start (500 x 10 KiB, bench/small-files.ts).
      if (this.passes === passes) this.pump();
      this.checkWaiters();
    }
  }

  protected async settle(entry: Entry, run: Run, result: AttemptResult): Promise<void> {
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

  protected completesTogether(entry: Entry): boolean {
    if (!this.deps.completeShare) return false;
    // Another file of its share is still in the queue (this one is).
    return this.store.shareSize(entry.item.shareId) > 1;
  }

  /** One completion of a group of handed-over files, journaled for all of them at once. */
  protected completeShare(group: Entry[], run: CompletionRun): Promise<AttemptResult[]> {
    const complete = this.deps.completeShare;
    if (!complete) throw new Error('This queue does not complete files together.');
    return complete(
      group.map((e) => this.copy(e.item)),
      shareHooks(group, run, this.store),
    );
  }

  protected async failed(entry: Entry, reason: FailureReason): Promise<void> {
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
  protected async note(entry: Entry, patch: ItemPatch, meta: Partial<ItemMeta> | undefined) {
    await this.update(entry, patch, meta, false).catch((err: unknown) => {
      if (!(err instanceof JournalWriteError)) throw err;
    });
  }

  /** Applies a change in memory, tells listeners, and journals it. */
  protected update(
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
  protected finish(entry: Entry, state: FinishedState, patch: ItemPatch): Promise<void> {
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
      this.pump();
      // The rest of its share may have been waiting for this one to end.
      this.groups.check(entry.item.shareId);
      // Taken now: the person may retry the item before the writes below are done.
      const record = this.historyRecord(entry);
      const item = this.copy(entry.item);
      await this.writeHistory(entry, record);
      this.events.finished(item);
    })();
    this.writing.add(work);
    return work.finally(() => {
      entry.finishing = false;
      this.writing.delete(work);
      this.checkWaiters();
    });
  }

  /** The journal cannot be written: the item waits (in memory), and tries again later. */
  protected holdUnwritable(entry: Entry, err: JournalWriteError): void {
    this.holdFor(entry, unwritableReason(err));
  }

  protected holdUnrecorded(
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

  protected holdFor(entry: Entry, error: FailureReason): void {
    const tries = (entry.unwritableTries ?? 0) + 1;
    entry.unwritableTries = tries;
    const wait = Math.min(1000 * 2 ** (tries - 1), MAX_UNWRITABLE_WAIT_MS);
    this.store.apply(entry, { state: 'waiting', retryAt: this.now() + wait, error });
    this.events.changed();
    this.pump();
  }

  protected historyRecord(entry: Entry) {
    return historyRecord(entry, this.deps.workspaceName);
  }

  protected writeHistory(entry: Entry, record: ReturnType<typeof historyRecord>): Promise<void> {
    return writeHistory(entry, record, {
      history: this.deps.history,
      marks: this.marks,
      compact: () => this.compactIfLarge(),
    });
  }

  protected async compactIfLarge(): Promise<void> {
    if (this.closing) return;
    await this.store.compactIfLarge();
  }

  protected copy(item: QueueItem): QueueItem {
    return copyItem(item);
  }
}
