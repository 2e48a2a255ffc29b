// The durable upload queue. Every accepted item is journaled before its first byte is sent and
// ends delivered, failed (with its reason), unknown ("may have been delivered") or cancelled by
// the person, across crashes and restarts. Scheduling: FIFO, at most `concurrency()` items in
// flight per workspace; transient failures back off and retry; a rate limit pauses the whole
// workspace; a refused token pauses it until `resumeWorkspace`.
// This file runs attempts and decides what their outcomes do to an item; its parts hold the
// rest: item-store.ts (items in memory and in the journal), scheduler.ts (which item starts
// when), share-groups.ts (files of one share completed together), queue-events.ts (listeners),
// queue-api.ts (the interface, hooks and dependencies).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { FailureReason, HistoryEntry, ItemState, QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { type RetryPolicy, retryPolicy } from '../upload/retry';
import { decideOnFailure } from './failure-policy';
import { checkFile, checkPaths } from './file-checks';
import { ItemStore, JournalWriteError } from './item-store';
import {
  hasCheckpoint,
  type ItemMeta,
  type ItemPatch,
  type JournalEntry,
  newMeta,
} from './journal';
import type { EnqueueRequest, EnqueueResult, QueueDeps, UploadQueue } from './queue-api';
import { QueueEvents } from './queue-events';
import { acquireQueueLock, type QueueLock } from './queue-lock';
import { defaultSleep, Scheduler } from './scheduler';
import { type CompletionRun, ShareGroups } from './share-groups';
import { UNWRITABLE_JOURNAL_CODES, unrecordedReason, unwritableReason } from './unwritable-journal';

export type {
  AttemptHooks,
  EnqueueRequest,
  EnqueueResult,
  QueueDeps,
  ShareHooks,
  UploadQueue,
} from './queue-api';

const ACTIVE: ReadonlySet<ItemState> = new Set(['queued', 'waiting', 'sending']);
const FINISHED: ReadonlySet<ItemState> = new Set(['delivered', 'failed', 'unknown', 'cancelled']);

interface Run {
  controller: AbortController;
  /** The person cancelled it. */
  cancel: boolean;
  /** Aborted because the queue is closing: the journal keeps it as it was. */
  closing: boolean;
  done: Promise<void>;
}

type FinishedState = 'delivered' | 'failed' | 'unknown' | 'cancelled';

interface Entry extends JournalEntry {
  run?: Run;
  /** An outcome known but not yet journaled (the disk was full): recorded before anything else. */
  unrecorded?: { state: FinishedState; patch: ItemPatch };
  /** Its outcome is being journaled: not to be started meanwhile. */
  finishing?: boolean;
  /** Tries since the journal last took a record for it (spaces out the next ones). */
  unwritableTries?: number;
}

/** The longest wait between tries to write a journal that could not be written. */
const MAX_UNWRITABLE_WAIT_MS = 30_000;

function internalError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function openUploadQueue(deps: QueueDeps): Promise<UploadQueue> {
  await mkdir(deps.dir, { recursive: true });
  const lock = await acquireQueueLock(deps.dir);
  try {
    const queue = new Queue(deps, lock);
    await queue.open();
    return queue;
  } catch (err) {
    await lock.release();
    throw err;
  }
}

class Queue implements UploadQueue {
  private readonly store: ItemStore<Entry>;
  private readonly scheduler: Scheduler;
  private readonly events = new QueueEvents(() => this.list());
  private readonly groups = new ShareGroups<Entry>({
    members: (shareId) => [...this.store.values()].filter((e) => e.item.shareId === shareId),
    complete: (group, run) => this.completeShare(group, run),
  });
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private globalPause: boolean;
  private closing = false;
  private damageNotice: string | undefined;

  /** Finishing items whose journal and history writes are still under way. */
  private readonly writing = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  private settledWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: QueueDeps,
    private readonly lock: QueueLock,
  ) {
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
  }

  async open(): Promise<void> {
    const keepTokenWaits = this.deps.keepTokenWaits === true;
    const { finished, pauses, damageNotice } = await this.store.open({ keepTokenWaits });
    this.scheduler.restorePauses(pauses);
    for (const { item } of this.store.values()) {
      if (item.state === 'waiting' && item.retryAt === undefined) {
        this.scheduler.needToken(item.workspaceId);
      }
    }
    this.damageNotice = damageNotice;
    for (const entry of this.store.values()) {
      if (entry.meta.historyPending && !finished.includes(entry)) finished.push(entry);
    }
    for (const entry of finished) await this.writeHistory(entry, this.historyRecord(entry));
    this.pump();
  }

  // ---- public API ----

  /** What opening repaired in the journal (said once: the repaired journal is clean). */
  repairNotice(): string | undefined {
    return this.damageNotice;
  }

  async enqueue(req: EnqueueRequest): Promise<EnqueueResult> {
    this.assertOpen();
    const shareId = randomUUID();
    const { files, refused } = await checkPaths(req.paths, this.deps.maxFileBytes(req.workspaceId));
    this.assertOpen();
    const now = this.now();
    const added: Entry[] = files.map((file, i) => ({
      item: {
        id: randomUUID(),
        shareId,
        workspaceId: req.workspaceId,
        channels: [...req.channels],
        comment: i > 0 && req.commentOnFirstOnly ? '' : req.comment,
        ...(req.threadTs ? { threadTs: req.threadTs } : {}),
        path: file.path,
        name: file.name,
        size: file.size,
        mtimeMs: file.mtimeMs,
        state: 'queued',
        sent: 0,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      },
      meta: newMeta(),
    }));
    // Durable before the items can start: a crash from here on cannot lose them.
    await this.store.add(added);
    this.events.changed();
    this.pump();
    return { shareId, items: added.map((e) => this.copy(e.item)), refused };
  }

  list(): QueueItem[] {
    return [...this.store.values()].map((e) => this.copy(e.item));
  }

  async cancel(id: string): Promise<void> {
    const entry = this.entry(id);
    const state = entry.item.state;
    // Its outcome is known, only not recorded yet: a cancel cannot change it.
    if (entry.unrecorded) return;
    if (state === 'queued' || state === 'waiting') {
      await this.finish(entry, 'cancelled', {});
      this.pump();
    } else if (state === 'sending' && entry.run) {
      entry.run.cancel = true;
      entry.run.controller.abort();
      await entry.run.done;
    }
  }

  async retry(id: string, opts: { channels?: string[] } = {}): Promise<void> {
    await this.retryTogether([id], opts);
  }

  async retryTogether(ids: readonly string[], opts: { channels?: string[] } = {}): Promise<void> {
    this.assertOpen();
    const entries = ids.map((id) => this.entry(id));
    for (const entry of entries) await this.requeue(entry, opts);
    // Started only once all are queued: a share's files wait for each other before completing.
    this.pump();
  }

  private async requeue(entry: Entry, opts: { channels?: string[] }): Promise<void> {
    if (!FINISHED.has(entry.item.state)) return;
    const { item } = entry;
    // The person asks to send the file as it is now: check it again and take its new size.
    const file = await checkFile(item.path, this.deps.maxFileBytes(item.workspaceId));
    if (!FINISHED.has(item.state)) return;
    if ('code' in file) {
      await this.finish(entry, 'failed', {
        error: {
          class: 'input',
          code: 'file_unavailable',
          message: `${item.name} cannot be sent again: ${file.reason}`,
        },
      });
      return;
    }
    // A fresh start: what an earlier attempt left is not resumed once the person asks again.
    const meta: ItemMeta = { ...newMeta(), finishes: entry.meta.finishes, resume: null };
    await this.update(
      entry,
      {
        state: 'queued',
        attempts: 0,
        sent: 0,
        size: file.size,
        mtimeMs: file.mtimeMs,
        error: null,
        retryAt: null,
        file: null,
        // "Send to the others" and "Change destination" send the same item elsewhere.
        ...(opts.channels ? { channels: [...opts.channels] } : {}),
      },
      meta,
      true,
    );
  }

  async clearFinished(): Promise<void> {
    const removed = [...this.store.values()].filter(
      (e) => FINISHED.has(e.item.state) && !e.meta.historyPending,
    );
    if (removed.length === 0) return;
    const done = this.store.remove(removed);
    this.events.changed();
    await done;
    await this.compactIfLarge();
  }

  setPaused(paused: boolean): void {
    if (this.globalPause === paused) return;
    this.globalPause = paused;
    this.pump();
    this.checkWaiters();
  }

  paused(): boolean {
    return this.globalPause;
  }

  resumeWorkspace(workspaceId: string): void {
    if (this.closing) return;
    this.scheduler.tokenGiven(workspaceId);
    for (const entry of this.store.values()) {
      const { item } = entry;
      if (
        item.workspaceId === workspaceId &&
        item.state === 'waiting' &&
        item.retryAt === undefined
      ) {
        void this.update(entry, { state: 'queued', error: null }, undefined, false).catch(() => {});
      }
    }
    this.pump();
  }

  workspacesNeedingToken(): string[] {
    return this.scheduler.workspacesNeedingToken();
  }

  reschedule(): void {
    this.pump();
  }

  onChange(listener: (items: QueueItem[]) => void): () => void {
    return this.events.onChange(listener);
  }

  onFinished(listener: (item: QueueItem) => void): () => void {
    return this.events.onFinished(listener);
  }

  onNeedsToken(listener: (e: { workspaceId: string; message: string }) => void): () => void {
    return this.events.onNeedsToken(listener);
  }

  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkWaiters();
    });
  }

  settled(): Promise<void> {
    return new Promise((resolve) => {
      this.settledWaiters.push(resolve);
      this.checkWaiters();
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.scheduler.stop();
    this.events.stopProgress();
    const runs = () => [...this.store.values()].flatMap((e) => (e.run ? [e.run] : []));
    // Requests still sending their body are cut: the journal has them as unsent, so they go
    // again on next open. Those whose body is complete get a moment to hear their answer.
    for (const entry of this.store.values()) {
      if (entry.run && !entry.meta.bodySent) {
        entry.run.closing = true;
        entry.run.controller.abort();
      }
    }
    for (const group of this.groups.runs()) if (!group.bodySent) group.controller.abort();
    const grace = this.deps.closeGraceMs ?? 5000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(runs().map((r) => r.done)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, grace);
      }),
    ]);
    clearTimeout(timer);
    for (const run of runs()) {
      run.closing = true;
      run.controller.abort();
    }
    for (const group of this.groups.runs()) group.controller.abort();
    await Promise.allSettled(runs().map((r) => r.done));
    await Promise.allSettled([...this.writing]);
    await this.store.close();
    await this.lock.release();
    this.events.clear();
  }

  // ---- scheduling ----

  private pump(): void {
    if (this.closing) return;
    const start = this.scheduler.pick(this.startable(), {
      now: this.now(),
      limit: Math.max(1, Math.floor(this.deps.concurrency())),
      paused: this.globalPause,
      // A file waiting for the rest of its share gave its slot back.
      holdsNoSlot: (item) => this.groups.isWaiting(item),
    });
    for (const entry of start) this.start(entry);
  }

  private *startable(): Generator<Entry> {
    for (const entry of this.store.values()) if (!entry.finishing) yield entry;
  }

  private start(entry: Entry): void {
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
        this.pump();
        this.checkWaiters();
      });
      return;
    }
    entry.meta.bodySent = false;
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
          this.checkWaiters();
          return;
        }
      }
    } else {
      marked.catch(() => {});
    }
    try {
      result = await this.deps.runAttempt(this.copy(entry.item), {
        signal: run.controller.signal,
        onProgress: (sent) => {
          if (entry.run !== run) return;
          entry.item.sent = sent;
          this.events.progressed();
        },
        beforeBodyComplete: async () => {
          if (entry.run !== run) throw new Error('This attempt is over.');
          await this.store.setMeta([[entry, { bodySent: true }]], true);
        },
        ...(hasCheckpoint(entry.meta) ? { resume: structuredClone(entry.meta.resume) } : {}),
        checkpoint: async (data) => {
          if (entry.run !== run) throw new Error('This attempt is over.');
          const resume = data === undefined ? null : structuredClone(data);
          await this.store.setMeta([[entry, { resume }]], true);
        },
        ...(this.completesTogether(entry)
          ? {
              awaitShare: () => {
                if (entry.run !== run) throw new Error('This attempt is over.');
                const result = this.groups.handOver(entry, run.controller.signal);
                this.pump();
                this.checkWaiters();
                return result;
              },
            }
          : {}),
      });
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
      result = entry.meta.bodySent
        ? {
            kind: 'unknown',
            reason: {
              class: 'unknown-outcome',
              code: 'internal_error',
              message: `The upload stopped with an internal error after the whole file was sent, so it may have been delivered: ${internalError(err)}`,
            },
          }
        : {
            kind: 'failed',
            reason: {
              class: 'other',
              code: 'internal_error',
              message: `The upload stopped with an internal error: ${internalError(err)}`,
            },
          };
    }
    entry.run = undefined;
    try {
      await this.settle(entry, run, result);
    } finally {
      this.pump();
      this.checkWaiters();
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
        await this.finish(entry, 'cancelled', { error: this.cancelNote(entry, run) });
        return;
      case 'failed':
        if (run.cancel) {
          await this.finish(entry, 'cancelled', { error: this.cancelNote(entry, run) });
          return;
        }
        await this.failed(entry, result.reason);
    }
  }

  private completesTogether(entry: Entry): boolean {
    if (!this.deps.completeShare) return false;
    const { shareId, id } = entry.item;
    for (const other of this.store.values()) {
      if (other.item.shareId === shareId && other.item.id !== id) return true;
    }
    return false;
  }

  /** One completion of a group of handed-over files, journaled for all of them at once. */
  private completeShare(group: Entry[], run: CompletionRun): Promise<AttemptResult[]> {
    const complete = this.deps.completeShare;
    if (!complete) throw new Error('This queue does not complete files together.');
    return complete(
      group.map((e) => this.copy(e.item)),
      {
        signal: run.controller.signal,
        resumes: group.map((e) => structuredClone(e.meta.resume)),
        checkpoint: (data) =>
          this.store.setMeta(
            group.map((e, i) => [e, { resume: data[i] == null ? null : structuredClone(data[i]) }]),
            true,
          ),
        beforeBodyComplete: async () => {
          await this.store.setMeta(
            group.map((e) => [e, { bodySent: true }]),
            true,
          );
          run.bodySent = true;
        },
        withComment: run.withComment,
      },
    );
  }

  private cancelNote(entry: Entry, run: Run): FailureReason | null {
    if (!entry.meta.bodySent) {
      return run.cancel
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
  private update(
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
  private finish(entry: Entry, state: FinishedState, patch: ItemPatch): Promise<void> {
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
    this.pump();
  }

  private historyRecord(entry: Entry): HistoryEntry {
    const { item, meta } = entry;
    return {
      // Numbered by finish: an item the person retried gets a second entry, a replay does not.
      id: `${item.id}.${meta.finishes}`,
      shareId: item.shareId,
      at: item.updatedAt,
      workspaceId: item.workspaceId,
      // Empty: the history store names it (its own resolver, else the id).
      workspaceName: this.deps.workspaceName?.(item.workspaceId) ?? '',
      channels: [...item.channels],
      comment: item.comment,
      path: item.path,
      name: item.name,
      size: item.size,
      outcome: item.state as FinishedState,
      ...(item.error ? { error: structuredClone(item.error) } : {}),
      ...(item.file?.permalink ? { permalink: item.file.permalink } : {}),
      ...(item.file?.id ? { fileId: item.file.id } : {}),
    };
  }

  private async writeHistory(entry: Entry, record: HistoryEntry): Promise<void> {
    try {
      await this.deps.history.append(record);
    } catch {
      // Kept pending: the next open writes it.
      return;
    }
    if (record.id !== `${entry.item.id}.${entry.meta.finishes}`) return;
    entry.meta.historyPending = false;
    await this.store
      .append([{ t: 'set', id: entry.item.id, meta: { historyPending: false } }], false)
      .catch(() => {});
    await this.compactIfLarge();
  }

  private async compactIfLarge(): Promise<void> {
    if (this.closing) return;
    await this.store.compactIfLarge();
  }

  private checkWaiters(): void {
    if (this.writing.size > 0) return;
    let active = 0;
    let blocked = 0;
    const blockedShares = new Set<string>();
    const handedOver: QueueItem[] = [];
    for (const { item } of this.store.values()) {
      if (!ACTIVE.has(item.state)) continue;
      active++;
      if (item.state === 'sending') {
        if (this.groups.isWaiting(item)) handedOver.push(item);
        continue;
      }
      if (
        this.globalPause ||
        this.scheduler.needsToken(item.workspaceId) ||
        // A journal that cannot be written waits for the person to free space.
        (item.state === 'waiting' && UNWRITABLE_JOURNAL_CODES.has(item.error?.code ?? ''))
      ) {
        blocked++;
        blockedShares.add(item.shareId);
      }
    }
    // Files waiting for a share whose other files wait for the person wait for the person too.
    for (const item of handedOver) if (blockedShares.has(item.shareId)) blocked++;
    if (active === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
    if (active === blocked && this.settledWaiters.length > 0) {
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const w of waiters) w();
    }
  }

  // ---- helpers ----

  private entry(id: string): Entry {
    const entry = this.store.get(id);
    if (!entry) throw new Error(`No upload with id ${id} in the queue.`);
    return entry;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('The upload queue is closed.');
  }

  private copy(item: QueueItem): QueueItem {
    return structuredClone(item);
  }
}
