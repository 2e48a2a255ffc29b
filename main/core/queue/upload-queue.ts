// The durable upload queue. Every accepted item is journaled before its first byte is sent and
// ends delivered, failed (with its reason), unknown ("may have been delivered") or cancelled by
// the person, across crashes and restarts. Scheduling: FIFO, at most `concurrency()` items in
// flight per workspace; transient failures back off and retry; a rate limit pauses the whole
// workspace; a refused token pauses it until `resumeWorkspace`.
// This file is the queue: what people and the app ask of it (enqueue, cancel, retry, pause,
// close), and its scheduling pass (pump), which starts the items scheduler.ts picks. It builds
// and owns its parts, which hold the rest: item-lifecycle.ts (an item's attempt and outcome,
// and the hand-off of finished ones to History), item-store.ts (items in memory and in the
// journal, and the hooks through which an attempt journals), scheduler.ts (which item starts
// when), share-groups.ts (files of one share completed together), queue-events.ts (listeners,
// and waiting for the queue to come to rest), queue-api.ts (the interface, hooks and
// dependencies). What it reads of the settings comes through settingsOncePerTurn
// (settings/settings-service.ts).
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { isActiveState, isFinishedState } from '../../portable/item-states';
import type { QueueItem } from '../model';
import { defaultSleep } from '../sleep';
import { checkFile, checkPaths } from './file-checks';
import { HistoryMarks } from './history-hand-off';
import { ItemLifecycle } from './item-lifecycle';
import { copyItem, type Entry, ItemStore } from './item-store';
import { type ItemMeta, newMeta } from './journal';
import type { EnqueueRequest, EnqueueResult, QueueDeps, UploadQueue } from './queue-api';
import { countOpen, QueueEvents, SettleWatch } from './queue-events';
import { acquireQueueLock, type QueueLock } from './queue-lock';
import { Scheduler } from './scheduler';
import { ShareGroups } from './share-groups';

export type {
  AttemptHooks,
  QueueDeps,
  ShareHooks,
  UploadQueue,
} from './queue-api';

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
  private readonly events = new QueueEvents(() => this.store.sharedItems());
  private readonly groups = new ShareGroups<Entry>({
    members: (shareId) => this.store.shareItems(shareId),
    complete: (group, run) => this.lifecycle.completeShare(group, run),
  });
  /** Finished items whose History line waits for its fsync to clear their history-pending mark. */
  private readonly marks: HistoryMarks;
  /** Each started item's attempt and outcome. */
  private readonly lifecycle: ItemLifecycle;
  private readonly now: () => number;
  private globalPause: boolean;
  private closing = false;
  private damageNotice: string | undefined;
  /** Ends the work QueueDeps.prepare started: aborted when the queue closes. */
  private readonly preparing = new AbortController();
  /** Items prepared since they last started (each is prepared once while it waits). */
  private readonly prepared = new WeakSet<QueueItem>();
  /** Scheduling passes run so far (the lifecycle reads it: see ItemLifecycle's attempt). */
  private passes = 0;
  private readonly watch = new SettleWatch(() => this.checkWaiters());

  constructor(
    private readonly deps: QueueDeps,
    private readonly lock: QueueLock,
  ) {
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
    this.lifecycle = new ItemLifecycle(
      {
        deps,
        store: this.store,
        scheduler: this.scheduler,
        events: this.events,
        groups: this.groups,
        marks: this.marks,
        now: this.now,
      },
      {
        pump: () => this.pump(),
        passes: () => this.passes,
        checkWaiters: () => this.checkWaiters(),
        compactIfLarge: () => this.compactIfLarge(),
      },
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
    for (const entry of finished) await this.lifecycle.writeHistory(entry);
    this.pump();
  }

  // ---- scheduling ----

  /**
   * A scheduling pass: starts the items scheduler.ts picks, and names to QueueDeps.prepare the
   * files waiting only for a slot. Runs whenever an item may start: one is added, retried or
   * ends, a pause is lifted, a token is given, or the scheduler's wake-up comes.
   */
  private pump(): void {
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
    for (const entry of start) {
      this.prepared.delete(entry.item);
      this.lifecycle.start(entry);
    }
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
      prepare(copyItem(item), this.preparing.signal);
    }
  }

  private *startable(): Generator<Entry> {
    for (const entry of this.store.openItems()) if (!entry.finishing) yield entry;
  }

  /** Items sending whose outcome is not being journaled (those hold no slot any more). */
  private *sendingNow(): Generator<QueueItem> {
    for (const entry of this.store.sendingItems()) if (!entry.finishing) yield entry.item;
  }

  // ---- public API ----

  list(): QueueItem[] {
    return [...this.store.values()].map((e) => copyItem(e.item));
  }

  /** What opening repaired in the journal (said once: the repaired journal is clean). */
  repairNotice(): string | undefined {
    return this.damageNotice;
  }

  async enqueue(req: EnqueueRequest): Promise<EnqueueResult> {
    this.assertOpen();
    const shareId = randomUUID();
    const limit = req.maxFileBytes ?? this.deps.maxFileBytes(req.workspaceId);
    const { files, refused } = await checkPaths(req.paths, limit, {
      strip: req.stripMetadata === true,
    });
    this.assertOpen();
    const now = this.now();
    const added: Entry[] = files.map((file, i) => ({
      item: {
        id: randomUUID(),
        shareId,
        workspaceId: req.workspaceId,
        channels: [...req.channels],
        ...(req.labels ? { labels: { ...req.labels } } : {}),
        comment: i > 0 && req.commentOnFirstOnly ? '' : req.comment,
        ...(req.threadTs ? { threadTs: req.threadTs } : {}),
        // Shown with the file once its workspace is removed ("Initech (removed)"), as History does.
        ...(req.workspaceName ? { workspaceName: req.workspaceName } : {}),
        path: file.path,
        name: file.name,
        size: file.size,
        mtimeMs: file.mtimeMs,
        ...(file.stripped ? { stripped: file.stripped } : {}),
        state: 'queued',
        sent: 0,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      },
      meta: { ...newMeta(), ...(req.workspaceName ? { workspaceName: req.workspaceName } : {}) },
    }));
    // Durable before the items can start: a crash from here on cannot lose them.
    await this.store.add(added);
    this.events.changed();
    this.pump();
    return { shareId, items: added.map((e) => copyItem(e.item)), refused };
  }

  async cancel(id: string): Promise<void> {
    const entry = this.entry(id);
    const state = entry.item.state;
    // Its outcome is known, only not recorded yet: a cancel cannot change it.
    if (entry.unrecorded) return;
    if (state === 'queued' || state === 'waiting') {
      await this.lifecycle.finish(entry, 'cancelled', {});
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
    if (!isFinishedState(entry.item.state)) return;
    // The retry's record durably clears the item's history-pending mark: its line must be on disk.
    await this.marks.flush();
    const { item } = entry;
    // The person asks to send the file as it is now: check it again and take its new size. Sent
    // without its hidden details before: so again, planned on the file as it is now.
    const file = await checkFile(item.path, this.deps.maxFileBytes(item.workspaceId), {
      strip: item.stripped !== undefined,
    });
    if (!isFinishedState(item.state)) return;
    if ('code' in file) {
      await this.lifecycle.finish(entry, 'failed', {
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
    await this.lifecycle.update(
      entry,
      {
        state: 'queued',
        attempts: 0,
        sent: 0,
        size: file.size,
        mtimeMs: file.mtimeMs,
        ...(item.stripped ? { stripped: file.stripped ?? null } : {}),
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
    // Items still finishing, or whose History line is written but not yet on disk, are removed
    // too, once they are done and it is.
    await this.lifecycle.writesDone();
    await this.marks.flush();
    const removed = [...this.store.values()].filter(
      (e) => isFinishedState(e.item.state) && !e.meta.historyPending,
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
        void this.lifecycle
          .update(entry, { state: 'queued', error: null }, undefined, false)
          .catch(() => {});
      }
    }
    this.pump();
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

  settled(): Promise<void> {
    return this.watch.settled();
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.preparing.abort();
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
    await this.lifecycle.writesDone();
    await this.marks.flush().catch(() => {});
    await this.store.close();
    await this.lock.release();
    this.events.clear();
  }

  /** Wakes whoever waits for the queue to be settled, when it is. */
  private checkWaiters(): void {
    // Runs as each item finishes: counting every item only when someone waits keeps a long
    // queue's per-item work from growing with the queue.
    if (this.lifecycle.writesUnderway() || !this.watch.waiting) return;
    this.watch.wake(
      countOpen(
        Array.from(this.store.openItems(), (e) => e.item),
        {
          active: isActiveState,
          paused: this.globalPause,
          needsToken: (ws) => this.scheduler.needsToken(ws),
          handedOver: (item) => this.groups.isWaiting(item),
        },
      ),
    );
  }

  // ---- helpers ----

  private entry(id: string): Entry {
    const entry = this.store.get(id);
    if (!entry) throw new Error(`No upload with id ${id} in the queue.`);
    return entry;
  }

  private async compactIfLarge(): Promise<void> {
    if (this.closing) return;
    await this.store.compactIfLarge();
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('The upload queue is closed.');
  }
}
