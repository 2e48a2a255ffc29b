// The durable upload queue. Every accepted item is journaled before its first byte is sent and
// ends delivered, failed (with its reason), unknown ("may have been delivered") or cancelled by
// the person, across crashes and restarts. Scheduling: FIFO, at most `concurrency()` items in
// flight per workspace; transient failures back off and retry; a rate limit pauses the whole
// workspace; a refused token pauses it until `resumeWorkspace`.
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryStore } from '../history/history-store';
import { JsonlAppender, readJsonl } from '../history/jsonl-file';
import type { FailureReason, HistoryEntry, ItemState, QueueItem } from '../model';
import type { AttemptResult } from '../upload/engine';
import { type RetryPolicy, retryPolicy } from '../upload/retry';
import { decideOnFailure } from './failure-policy';
import { checkFile, checkPaths } from './file-checks';
import {
  hasCheckpoint,
  type ItemMeta,
  type ItemPatch,
  JOURNAL_FILE,
  type JournalEntry,
  type JournalRecord,
  newMeta,
  recoverInterrupted,
  replayJournal,
  snapshotRecords,
} from './journal';
import { acquireQueueLock, type QueueLock } from './queue-lock';
import { type CompletionRun, ShareGroups } from './share-groups';

export interface AttemptHooks {
  signal: AbortSignal;
  /** File bytes sent so far in this attempt. */
  onProgress: (sent: number) => void;
  /** Journals "body complete" and fsyncs it; the engine awaits it before the last bytes go. */
  beforeBodyComplete: () => Promise<void>;
  /** The last checkpoint an earlier attempt at this item saved, if any. */
  resume?: unknown;
  /**
   * Journals (with fsync) where this attempt got to; the next attempt at this item, after a
   * failure, a restart or a crash, gets it as `resume`. null clears it. An attempt that leaves a
   * checkpoint takes on deciding what is safe to repeat: an item interrupted after its body was
   * complete goes again from its checkpoint instead of becoming 'unknown'.
   */
  checkpoint: (data: unknown) => Promise<void>;
  /**
   * Given when the item's share has other files and the queue can complete files together
   * (`QueueDeps.completeShare`): an attempt whose bytes are on the service, checkpointed, hands
   * over here instead of completing alone, and returns what the share's completion gives it.
   */
  awaitShare?: () => Promise<AttemptResult>;
}

/** One completion of several files of a share (see share-groups.ts). */
export interface ShareHooks {
  signal: AbortSignal;
  /** Each file's last checkpoint, in the group's order. */
  resumes: unknown[];
  /** Journals (fsync) every file's new checkpoint in one write; null clears one. */
  checkpoint: (data: unknown[]) => Promise<void>;
  /** Journals "body complete" for every file of the group before the last bytes go. */
  beforeBodyComplete: () => Promise<void>;
}

export interface QueueDeps {
  /** Folder of the journal (`queue.jsonl`) and its lock. */
  dir: string;
  /** One attempt at one item (the engine's uploadOnce, with the workspace's URL and token). */
  runAttempt: (item: QueueItem, opts: AttemptHooks) => Promise<AttemptResult>;
  /**
   * Completes files of one share together (Slack's external protocol: one message). Without
   * it every item completes alone. One result per item, in order.
   */
  completeShare?: (items: QueueItem[], hooks: ShareHooks) => Promise<AttemptResult[]>;
  /** Items in flight at once per workspace (read whenever a slot may be filled). */
  concurrency: () => number;
  /** The workspace's file size limit, checked when paths are queued. */
  maxFileBytes: (workspaceId: string) => number;
  now?: () => number;
  /** Waits used for backoff and rate-limit pauses; default setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  history: HistoryStore;
  /** Names the workspace in history entries (else the history store's resolver does). */
  workspaceName?: (workspaceId: string) => string | undefined;
  /** Start with the global pause on (the tray's pause, kept by the settings). */
  startPaused?: boolean;
  /** Rate-limit answers one item may wait out before it fails. Default 30. */
  maxRateLimitWaits?: number;
  /** On close, how long to wait for answers to requests whose body is complete. Default 5000. */
  closeGraceMs?: number;
  /** Compact the journal when it has more than this many records beyond the live ones. Default 1000. */
  compactAfterRecords?: number;
}

export interface EnqueueRequest {
  workspaceId: string;
  channels: string[];
  comment: string;
  paths: string[];
  /** Reply in this thread (exactly one channel). */
  threadTs?: string;
  /** files.upload makes one message per file: the comment goes with the first file only. */
  commentOnFirstOnly?: boolean;
}

export interface EnqueueResult {
  shareId: string;
  items: QueueItem[];
  refused: { path: string; reason: string; code?: string }[];
}

export interface UploadQueue {
  /** What opening repaired in the journal, if anything. */
  repairNotice(): string | undefined;
  enqueue(req: EnqueueRequest): Promise<EnqueueResult>;
  /** Items in queue order (copies). */
  list(): QueueItem[];
  /** Queued or waiting: cancelled at once; sending: the request is aborted. Finished: nothing. */
  cancel(id: string): Promise<void>;
  /** A failed, unknown or cancelled item goes back to the queue as the same item, attempts reset. */
  retry(id: string, opts?: { channels?: string[] }): Promise<void>;
  /** Removes finished items from the queue (they stay in history). */
  clearFinished(): Promise<void>;
  /** The tray's pause: no new item starts; items in flight finish. */
  setPaused(paused: boolean): void;
  paused(): boolean;
  /** After a new token: the workspace's waiting items go again. */
  resumeWorkspace(workspaceId: string): void;
  /** Workspaces stopped until a new token is given. */
  workspacesNeedingToken(): string[];
  /** Fill free slots again (call after the concurrency setting changed). */
  reschedule(): void;
  /** State changes at once; progress at most 10 times a second. */
  onChange(listener: (items: QueueItem[]) => void): () => void;
  onFinished(listener: (item: QueueItem) => void): () => void;
  /** Once per stop of a workspace for a refused token. */
  onNeedsToken(listener: (e: { workspaceId: string; message: string }) => void): () => void;
  /** Resolves when nothing is queued, waiting or sending (and history is written). */
  idle(): Promise<void>;
  /**
   * Resolves when nothing more can happen without the person: every unfinished item waits for
   * a new token or for the pause to be lifted (idle() would wait for them).
   */
  settled(): Promise<void>;
  /** Stops starting items, aborts requests whose body is not complete (they go again on next open). */
  close(): Promise<void>;
}

const PROGRESS_INTERVAL_MS = 100;
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

interface Entry extends JournalEntry {
  run?: Run;
}

type FinishedState = 'delivered' | 'failed' | 'unknown' | 'cancelled';

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
  private readonly entries = new Map<string, Entry>();
  private readonly rateLimitedUntil = new Map<string, number>();
  /** Workspaces back from a rate-limit pause: one request goes first, the rest once it passes. */
  private readonly probing = new Set<string>();
  private readonly needsToken = new Set<string>();
  private readonly groups = new ShareGroups<Entry>({
    members: (shareId) => [...this.entries.values()].filter((e) => e.item.shareId === shareId),
    complete: (group, run) => this.completeShare(group, run),
  });
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private readonly path: string;
  private journal!: JsonlAppender;
  private globalPause: boolean;
  private closing = false;
  private compacting = false;

  /** Finishing items whose journal and history writes are still under way. */
  private readonly writing = new Set<Promise<void>>();
  private wake: { at: number; controller: AbortController } | undefined;

  private readonly changeListeners = new Set<(items: QueueItem[]) => void>();
  private readonly finishedListeners = new Set<(item: QueueItem) => void>();
  private readonly tokenListeners = new Set<
    (e: { workspaceId: string; message: string }) => void
  >();
  private changeQueued = false;
  private progressTimer: ReturnType<typeof setTimeout> | undefined;
  private lastChangeAt = 0;
  private idleWaiters: (() => void)[] = [];
  private settledWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: QueueDeps,
    private readonly lock: QueueLock,
  ) {
    this.policy = retryPolicy(deps.retry);
    this.now = deps.now ?? Date.now;
    this.path = join(deps.dir, JOURNAL_FILE);
    this.globalPause = deps.startPaused ?? false;
  }

  private damageNotice: string | undefined;

  async open(): Promise<void> {
    const read = await readJsonl(this.path);
    const state = replayJournal(read.values);
    const finished = recoverInterrupted(state, this.now());
    for (const [id, entry] of state.entries) this.entries.set(id, entry);
    for (const [ws, until] of state.pauses) this.rateLimitedUntil.set(ws, until);
    const damaged = (read.torn ? 1 : 0) + read.bad + state.skipped;
    if (damaged > 0) this.damageNotice = await keepDamagedJournal(this.path, damaged);
    this.journal = await JsonlAppender.open(this.path);
    // Always start from a clean file: drops a torn tail so appends never extend half a line,
    // and makes what recovery decided durable before anything is sent.
    await this.compact();
    for (const entry of this.entries.values()) {
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
    await this.journal.append(
      added.map(({ item, meta }): JournalRecord => ({ t: 'add', item, meta })),
      { sync: true },
    );
    for (const entry of added) this.entries.set(entry.item.id, entry);
    this.changed();
    this.pump();
    return { shareId, items: added.map((e) => this.copy(e.item)), refused };
  }

  list(): QueueItem[] {
    return [...this.entries.values()].map((e) => this.copy(e.item));
  }

  async cancel(id: string): Promise<void> {
    const entry = this.entry(id);
    const state = entry.item.state;
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
    this.assertOpen();
    const entry = this.entry(id);
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
    this.pump();
  }

  async clearFinished(): Promise<void> {
    const removed = [...this.entries.values()].filter(
      (e) => FINISHED.has(e.item.state) && !e.meta.historyPending,
    );
    if (removed.length === 0) return;
    for (const e of removed) this.entries.delete(e.item.id);
    this.changed();
    await this.journal.append(
      removed.map((e): JournalRecord => ({ t: 'del', id: e.item.id })),
      { sync: false },
    );
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
    this.needsToken.delete(workspaceId);
    for (const entry of this.entries.values()) {
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
    return [...this.needsToken];
  }

  reschedule(): void {
    this.pump();
  }

  onChange(listener: (items: QueueItem[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onFinished(listener: (item: QueueItem) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  onNeedsToken(listener: (e: { workspaceId: string; message: string }) => void): () => void {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
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
    this.wake?.controller.abort();
    this.wake = undefined;
    if (this.progressTimer) clearTimeout(this.progressTimer);
    const runs = () => [...this.entries.values()].flatMap((e) => (e.run ? [e.run] : []));
    // Requests still sending their body are cut: the journal has them as unsent, so they go
    // again on next open. Those whose body is complete get a moment to hear their answer.
    for (const entry of this.entries.values()) {
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
    await this.journal.close();
    await this.lock.release();
    this.changeListeners.clear();
    this.finishedListeners.clear();
    this.tokenListeners.clear();
  }

  // ---- scheduling ----

  private pump(): void {
    if (this.closing) return;
    const now = this.now();
    const limit = Math.max(1, Math.floor(this.deps.concurrency()));
    const running = new Map<string, number>();
    for (const { item } of this.entries.values()) {
      // A file waiting for the rest of its share gave its slot back.
      if (item.state === 'sending' && !this.groups.isWaiting(item)) {
        running.set(item.workspaceId, (running.get(item.workspaceId) ?? 0) + 1);
      }
    }
    let nextWake = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.values()) {
      const { item } = entry;
      if (item.state !== 'queued' && item.state !== 'waiting') continue;
      const ws = item.workspaceId;
      if (this.needsToken.has(ws)) continue;
      // Waiting without a time: waits for a new token.
      if (item.state === 'waiting' && item.retryAt === undefined) continue;
      const limitedUntil = this.rateLimitedUntil.get(ws);
      if (limitedUntil !== undefined && limitedUntil > now) {
        nextWake = Math.min(nextWake, limitedUntil);
        continue;
      }
      if (limitedUntil !== undefined) {
        this.rateLimitedUntil.delete(ws);
        this.probing.add(ws);
      }
      if (item.state === 'waiting' && item.retryAt !== undefined && item.retryAt > now) {
        nextWake = Math.min(nextWake, item.retryAt);
        continue;
      }
      if (this.globalPause) continue;
      const inFlight = running.get(ws) ?? 0;
      if (inFlight >= (this.probing.has(ws) ? 1 : limit)) continue;
      running.set(ws, inFlight + 1);
      this.start(entry);
    }
    this.scheduleWake(nextWake, now);
  }

  private scheduleWake(at: number, now: number): void {
    if (this.wake && this.wake.at === at) return;
    this.wake?.controller.abort();
    this.wake = undefined;
    if (!Number.isFinite(at) || this.globalPause) return;
    const controller = new AbortController();
    const wake = { at, controller };
    this.wake = wake;
    const sleep = this.deps.sleep ?? defaultSleep;
    sleep(Math.max(0, at - now), controller.signal).then(
      () => {
        if (this.wake !== wake || controller.signal.aborted) return;
        this.wake = undefined;
        this.pump();
      },
      () => {},
    );
  }

  private start(entry: Entry): void {
    const { item } = entry;
    const controller = new AbortController();
    const run: Run = { controller, cancel: false, closing: false, done: Promise.resolve() };
    entry.run = run;
    entry.meta.bodySent = false;
    void this.update(
      entry,
      { state: 'sending', attempts: item.attempts + 1, sent: 0, retryAt: null, error: null },
      { bodySent: false },
      false,
    ).catch(() => {});
    run.done = this.attempt(entry, run);
  }

  private async attempt(entry: Entry, run: Run): Promise<void> {
    const id = entry.item.id;
    let result: AttemptResult;
    try {
      result = await this.deps.runAttempt(this.copy(entry.item), {
        signal: run.controller.signal,
        onProgress: (sent) => {
          if (entry.run !== run) return;
          entry.item.sent = sent;
          this.progressed();
        },
        beforeBodyComplete: async () => {
          if (entry.run !== run) throw new Error('This attempt is over.');
          await this.journal.append([{ t: 'set', id, meta: { bodySent: true } }], { sync: true });
          entry.meta.bodySent = true;
        },
        ...(hasCheckpoint(entry.meta) ? { resume: structuredClone(entry.meta.resume) } : {}),
        checkpoint: async (data) => {
          if (entry.run !== run) throw new Error('This attempt is over.');
          const resume = data === undefined ? null : structuredClone(data);
          await this.journal.append([{ t: 'set', id, meta: { resume } }], { sync: true });
          entry.meta.resume = resume;
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
        this.probing.delete(item.workspaceId);
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
    for (const other of this.entries.values()) {
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
        checkpoint: async (data) => {
          const resumes = group.map((_, i) =>
            data[i] === undefined ? null : structuredClone(data[i]),
          );
          await this.journal.append(
            group.map(
              (e, i): JournalRecord => ({
                t: 'set',
                id: e.item.id,
                meta: { resume: resumes[i] },
              }),
            ),
            { sync: true },
          );
          for (const [i, e] of group.entries()) e.meta.resume = resumes[i];
        },
        beforeBodyComplete: async () => {
          await this.journal.append(
            group.map(
              (e): JournalRecord => ({ t: 'set', id: e.item.id, meta: { bodySent: true } }),
            ),
            { sync: true },
          );
          for (const e of group) e.meta.bodySent = true;
          run.bodySent = true;
        },
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
        const current = this.rateLimitedUntil.get(ws) ?? 0;
        // Requests that were in flight with the one that met the limit join its pause rather
        // than each lengthening it: the workspace pauses once.
        if (current <= now) {
          this.rateLimitedUntil.set(ws, decision.until);
          void this.journal
            .append([{ t: 'pause', workspaceId: ws, until: decision.until }], { sync: false })
            .catch(() => {});
        }
        const retryAt = Math.max(decision.until, current);
        await this.update(
          entry,
          { state: 'waiting', retryAt, error: reason, updatedAt: now },
          decision.meta,
          false,
        );
        return;
      }
      case 'retry':
        await this.update(
          entry,
          { state: 'waiting', retryAt: decision.retryAt, error: reason, updatedAt: now },
          decision.meta,
          false,
        );
        return;
      case 'needs-token': {
        const first = !this.needsToken.has(ws);
        this.needsToken.add(ws);
        await this.update(
          entry,
          { state: 'waiting', retryAt: null, error: reason },
          undefined,
          false,
        );
        if (first) {
          for (const l of this.tokenListeners) {
            safely(() => l({ workspaceId: ws, message: reason.message }));
          }
        }
        return;
      }
      case 'finish':
        await this.finish(entry, decision.state, { error: reason });
    }
  }

  // ---- state changes ----

  /** Applies a change in memory, tells listeners, and journals it. */
  private update(
    entry: Entry,
    patch: ItemPatch,
    meta: Partial<ItemMeta> | undefined,
    sync: boolean,
  ): Promise<void> {
    const { item } = entry;
    const full: ItemPatch = { updatedAt: this.now(), ...patch };
    for (const [key, value] of Object.entries(full)) {
      const target = item as unknown as Record<string, unknown>;
      if (value === null || value === undefined) delete target[key];
      else target[key] = value;
    }
    if (meta) Object.assign(entry.meta, meta);
    this.changed();
    const record: JournalRecord = { t: 'set', id: item.id, item: full, ...(meta ? { meta } : {}) };
    return this.journal.append([record], { sync });
  }

  private finish(entry: Entry, state: FinishedState, patch: ItemPatch): Promise<void> {
    const journaled = this.update(
      entry,
      { ...patch, state, retryAt: null },
      { finishes: entry.meta.finishes + 1, historyPending: true, resume: null },
      true,
    );
    // The rest of its share may have been waiting for this one to end.
    this.groups.check(entry.item.shareId);
    // Taken now: the person may retry the item before the writes below are done.
    const record = this.historyRecord(entry);
    const item = this.copy(entry.item);
    const work = (async () => {
      await journaled.catch(() => {});
      await this.writeHistory(entry, record);
      for (const l of this.finishedListeners) safely(() => l(item));
    })();
    this.writing.add(work);
    return work.finally(() => {
      this.writing.delete(work);
      this.checkWaiters();
    });
  }

  private historyRecord(entry: Entry): HistoryEntry {
    const { item, meta } = entry;
    return {
      // Numbered by finish: an item the person retried gets a second entry, a replay does not.
      id: `${item.id}.${meta.finishes}`,
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
    await this.journal
      .append([{ t: 'set', id: entry.item.id, meta: { historyPending: false } }], { sync: false })
      .catch(() => {});
    await this.compactIfLarge();
  }

  private async compactIfLarge(): Promise<void> {
    const limit = this.deps.compactAfterRecords ?? 1000;
    if (this.compacting || this.closing) return;
    if (this.journal.appendedSinceRewrite <= limit + this.entries.size) return;
    await this.compact().catch(() => {});
  }

  private async compact(): Promise<void> {
    this.compacting = true;
    try {
      await this.journal.rewrite(() => {
        const now = this.now();
        const pauses = [...this.rateLimitedUntil].filter(([, until]) => until > now);
        return snapshotRecords(this.entries.values(), pauses);
      });
    } finally {
      this.compacting = false;
    }
  }

  // ---- events ----

  // State changes go out once per tick (several changes in one tick make one event).
  private changed(): void {
    if (this.changeQueued) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.emitChange();
    });
  }

  private progressed(): void {
    if (this.progressTimer || this.changeQueued) return;
    const delay = Math.max(0, this.lastChangeAt + PROGRESS_INTERVAL_MS - Date.now());
    this.progressTimer = setTimeout(() => {
      this.progressTimer = undefined;
      this.emitChange();
    }, delay);
    this.progressTimer.unref?.();
  }

  private emitChange(): void {
    if (this.progressTimer) {
      clearTimeout(this.progressTimer);
      this.progressTimer = undefined;
    }
    this.lastChangeAt = Date.now();
    if (this.changeListeners.size === 0) return;
    const items = this.list();
    for (const l of this.changeListeners) safely(() => l(items));
  }

  private checkWaiters(): void {
    if (this.writing.size > 0) return;
    let active = 0;
    let blocked = 0;
    const blockedShares = new Set<string>();
    const handedOver: QueueItem[] = [];
    for (const { item } of this.entries.values()) {
      if (!ACTIVE.has(item.state)) continue;
      active++;
      if (item.state === 'sending') {
        if (this.groups.isWaiting(item)) handedOver.push(item);
        continue;
      }
      if (this.globalPause || this.needsToken.has(item.workspaceId)) {
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
    const entry = this.entries.get(id);
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

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // a listener's failure is its own
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Keeps a damaged journal beside the repaired one, and says what was done. */
async function keepDamagedJournal(path: string, records: number): Promise<string> {
  const copy = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const kept = await copyFile(path, copy).then(
    () => `a copy of the damaged file is kept at ${copy}`,
    (error: NodeJS.ErrnoException) => `no copy could be kept (${error.code ?? error.message})`,
  );
  return `The upload queue's journal ${path} was damaged (${records} record${records === 1 ? '' : 's'} could not be read) and has been repaired; ${kept}. Uploads whose records were cut may be missing from the queue: check the history and send them again if needed.`;
}
