// The queue's items, kept in memory and in the journal (`queue.jsonl`, see journal.ts). Every
// change is applied in memory and appended to the journal in one step, so what the queue
// decides is what a restart finds. Opening replays the journal, settles what a crash cut off,
// repairs a damaged file (keeping a copy beside it) and rewrites it clean. An attempt reaches
// the journal only through the hooks made here (attemptHooks, shareHooks).

import { copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FinishedState } from '../../portable/item-states';
import { damagedName } from '../damaged-name';
import { JsonlAppender, readJsonl } from '../history/jsonl-file';
import type { FailureReason, QueueItem, ServiceFile } from '../model';
import type { AttemptResult } from '../upload/attempt';
import {
  hasCheckpoint,
  type ItemMeta,
  type ItemPatch,
  JOURNAL_FILE,
  type JournalEntry,
  type JournalRecord,
  recoverInterrupted,
  replayJournal,
  snapshotRecords,
} from './journal';
import type { AttemptHooks, ShareHooks } from './queue-api';
import { QueueIndex } from './queue-index';
import type { CompletionRun } from './share-groups';
import { SharedList } from './shared-list';

/** What is under way for a running item now. */
export interface Run {
  controller: AbortController;
  /** The person cancelled it. */
  cancel: boolean;
  /** Aborted because the queue is closing: the journal keeps it as it was. */
  closing: boolean;
  done: Promise<void>;
}

export type { FinishedState } from '../../portable/item-states';

/**
 * One queued item as the queue holds it while it runs: the journaled item and meta, and what
 * is under way for it now. Shared by the queue's parts; not part of its interface.
 */
export interface Entry extends JournalEntry {
  run?: Run;
  /** An outcome known but not yet journaled (the disk was full): recorded before anything else. */
  unrecorded?: { state: FinishedState; patch: ItemPatch };
  /** Its outcome is being journaled: not to be started meanwhile. */
  finishing?: boolean;
  /** Tries since the journal last took a record for it (spaces out the next ones). */
  unwritableTries?: number;
}

export interface Opened<E> {
  /** Items that recovery just finished (their history is still to be written). */
  finished: E[];
  /** Rate-limit pauses still running, by workspace (epoch ms). */
  pauses: Map<string, number>;
  /** What was repaired, if the journal was damaged. */
  damageNotice?: string;
}

/**
 * The journal could not take a record (a full or read-only disk): nothing of it was written, so
 * what the journal holds is what it held before. The queue holds the item rather than act on a
 * change a restart would not find.
 */
export class JournalWriteError extends Error {
  override name = 'JournalWriteError';
  /** The folder that could not be written. */
  readonly dir: string;
  readonly code: string;
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super(`${path}: ${cause.message}`, { cause });
    this.dir = dirname(path);
    this.code = cause.code ?? 'EIO';
  }
}

export class ItemStore<E extends JournalEntry> {
  /** In queue order. */
  readonly entries = new Map<string, E>();
  /** The items still to go, and each share's items, kept as they change. */
  private readonly index = new QueueIndex<E>(() => this.entries.values());
  private readonly path: string;
  private journal!: JsonlAppender;
  private compacting = false;
  /** What change listeners are handed: every item, as frozen copies made once per change. */
  private readonly shared = new SharedList<E>(() => this.entries.values(), copyItem);

  constructor(
    dir: string,
    private readonly now: () => number,
    /** Rate-limit pauses a compaction keeps. */
    private readonly pauses: () => [string, number][],
    /** Compact when the journal has this many records beyond the live ones. */
    private readonly compactAfterRecords: number,
  ) {
    this.path = join(dir, JOURNAL_FILE);
  }

  async open(opts: { keepTokenWaits?: boolean } = {}): Promise<Opened<E>> {
    const read = await readJsonl(this.path);
    const state = replayJournal(read.values);
    const finished = recoverInterrupted(state, this.now(), opts) as E[];
    for (const [id, entry] of state.entries) this.entries.set(id, entry as E);
    this.index.added(this.entries.values());
    this.shared.queueChanged();
    const damaged = (read.torn ? 1 : 0) + read.bad + state.skipped;
    const damageNotice = damaged > 0 ? await keepDamagedJournal(this.path, damaged) : undefined;
    this.journal = await JsonlAppender.open(this.path);
    // Always start from a clean file: drops a torn tail so appends never extend half a line,
    // and makes what recovery decided durable before anything is sent. The pauses are the
    // journal's until the scheduler has them.
    await this.compact([...state.pauses]);
    return { finished, pauses: state.pauses, ...(damageNotice ? { damageNotice } : {}) };
  }

  get(id: string): E | undefined {
    return this.entries.get(id);
  }

  values(): IterableIterator<E> {
    return this.entries.values();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The items not finished (queued, waiting, sending), in queue order. */
  openItems(): Iterable<E> {
    return this.index.openItems();
  }

  /** The items sending now. */
  sendingItems(): Iterable<E> {
    return this.index.sending();
  }

  /** How many workspaces have items queued or waiting. */
  workspacesToStart(): number {
    return this.index.workspacesToStart();
  }

  /** The share's items still in the queue, in queue order. */
  shareItems(shareId: string): E[] {
    return this.index.shareItems(shareId);
  }

  /** How many of the share's items are still in the queue. */
  shareSize(shareId: string): number {
    return this.index.shareSize(shareId);
  }

  /** Appends to the journal; a file-system error comes back as a JournalWriteError. */
  private write(records: JournalRecord[], sync: boolean): Promise<void> {
    return this.journal.append(records, { sync }).catch((error: NodeJS.ErrnoException) => {
      throw typeof error?.code === 'string' ? new JournalWriteError(this.path, error) : error;
    });
  }

  /** New items, durable (fsynced) before this resolves. */
  async add(added: E[]): Promise<void> {
    await this.journal.append(
      added.map(({ item, meta }): JournalRecord => ({ t: 'add', item, meta })),
      { sync: true },
    );
    for (const entry of added) this.entries.set(entry.item.id, entry);
    this.index.added(added);
    this.shared.queueChanged();
  }

  /** Applies a change to the item and its meta in memory at once, then journals it. */
  update(entry: E, patch: ItemPatch, meta: Partial<ItemMeta> | undefined, sync: boolean) {
    const full: ItemPatch = { updatedAt: this.now(), ...patch };
    this.apply(entry, full, meta);
    return this.write([setRecord(entry, full, meta)], sync);
  }

  /**
   * Journals a change first and applies it in memory only once the journal holds it: for
   * outcomes, which must never be reported unless a restart finds them too.
   */
  async commit(entry: E, patch: ItemPatch, meta: Partial<ItemMeta> | undefined, sync: boolean) {
    const full: ItemPatch = { updatedAt: this.now(), ...patch };
    await this.write([setRecord(entry, full, meta)], sync);
    this.apply(entry, full, meta);
  }

  /** Changes the item in memory only (what the journal holds stays as it was). */
  apply(entry: E, patch: ItemPatch, meta?: Partial<ItemMeta>): void {
    this.shared.itemChanged(entry);
    const before = entry.item.state;
    const target = entry.item as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined) delete target[key];
      else target[key] = value;
    }
    if (meta) Object.assign(entry.meta, meta);
    this.index.stateChanged(entry, before);
  }

  /** Bytes of the item sent so far: in memory only (a restart sends from the start). */
  progress(entry: E, sent: number): void {
    this.shared.itemChanged(entry);
    entry.item.sent = sent;
  }

  /**
   * Every item as change listeners get it, frozen copies in queue order (shared-list.ts): each
   * item copied once per change, the list patched where items changed.
   */
  sharedItems(): QueueItem[] {
    return this.shared.items();
  }

  /**
   * Journals "body complete" for several items in one write, fsynced, then applies it. Each
   * record also says the item is sending: the record of the attempt's start is not fsynced and
   * may be missing (a full disk refused it, a power loss took it) while this one is on disk, and
   * a replay must then still find a sending item whose body may have gone ("may have been
   * delivered"), not a queued one it would send again.
   */
  async bodyComplete(entries: E[]): Promise<void> {
    await this.write(
      entries.map(
        (e): JournalRecord => ({
          t: 'set',
          id: e.item.id,
          item: { state: 'sending' },
          meta: { bodySent: true },
        }),
      ),
      true,
    );
    for (const e of entries) e.meta.bodySent = true;
  }

  /** Journals new meta for several items in one write, then applies it. */
  async setMeta(changes: [E, Partial<ItemMeta>][], sync: boolean): Promise<void> {
    await this.write(
      changes.map(([e, meta]): JournalRecord => ({ t: 'set', id: e.item.id, meta })),
      sync,
    );
    for (const [e, meta] of changes) Object.assign(e.meta, meta);
  }

  /** Records that are not about one item (a workspace's rate-limit pause). */
  append(records: JournalRecord[], sync: boolean): Promise<void> {
    return this.write(records, sync);
  }

  /** Removes items from the queue (they stay in history). */
  async remove(removed: E[]): Promise<void> {
    for (const e of removed) this.entries.delete(e.item.id);
    this.index.removed(removed);
    this.shared.queueChanged();
    await this.journal.append(
      removed.map((e): JournalRecord => ({ t: 'del', id: e.item.id })),
      { sync: false },
    );
  }

  async compactIfLarge(): Promise<void> {
    if (this.compacting) return;
    if (this.journal.appendedSinceRewrite <= this.compactAfterRecords + this.entries.size) return;
    await this.compact().catch(() => {});
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private async compact(pauses?: [string, number][]): Promise<void> {
    this.compacting = true;
    try {
      await this.journal.rewrite(() => {
        const now = this.now();
        const live = (pauses ?? this.pauses()).filter(([, until]) => until > now);
        return snapshotRecords(this.entries.values(), live);
      });
    } finally {
      this.compacting = false;
    }
  }
}

// What one attempt, or one completion of a share's files, is given to reach the journal: its
// progress, "body complete", its checkpoints and the hand-over to its share. Each hook refuses
// to act for an attempt that is over, so a late callback cannot change a newer attempt's record.
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

function setRecord(
  entry: JournalEntry,
  item: ItemPatch,
  meta: Partial<ItemMeta> | undefined,
): JournalRecord {
  return { t: 'set', id: entry.item.id, item, ...(meta ? { meta } : {}) };
}

/** Keeps a damaged journal beside the repaired one, and says what was done. */
async function keepDamagedJournal(path: string, records: number): Promise<string> {
  const copy = damagedName(path);
  const kept = await copyFile(path, copy).then(
    () => `a copy of the damaged file is kept at ${copy}`,
    (error: NodeJS.ErrnoException) => `no copy could be kept (${error.code ?? error.message})`,
  );
  return `The upload queue's journal ${path} was damaged (${records} record${records === 1 ? '' : 's'} could not be read) and has been repaired; ${kept}. Uploads whose records were cut may be missing from the queue: check the history and send them again if needed.`;
}

// A queue item copied field by field. Every change event hands listeners a copy of every item
// (queue-events.ts), so with hundreds of small files the copying is paid hundreds of times over:
// structuredClone took 9–15 µs an item here, this 0.4 µs, and was 30% of the CPU of a 300-file
// share through the queue (bench/small-files.ts). Items are JSON-shaped (model.ts): what is
// nested, arrays and the error and file objects, is copied too, so no copy shares anything with
// the queue's own item.
function copyReason(r: FailureReason): FailureReason {
  return {
    ...r,
    ...(r.channels ? { channels: [...r.channels] } : {}),
    ...(r.refusedChannels ? { refusedChannels: [...r.refusedChannels] } : {}),
  };
}

function copyServiceFile(f: ServiceFile): ServiceFile {
  return { ...f, ...(f.channels ? { channels: [...f.channels] } : {}) };
}

export function copyItem(item: QueueItem): QueueItem {
  const copy: QueueItem = { ...item, channels: [...item.channels] };
  if (item.labels) copy.labels = { ...item.labels };
  if (item.error) copy.error = copyReason(item.error);
  if (item.file) copy.file = copyServiceFile(item.file);
  if (item.stripped) copy.stripped = { ...item.stripped, removed: [...item.stripped.removed] };
  return copy;
}
