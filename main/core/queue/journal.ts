// The queue's journal: `queue.jsonl` in the data folder. Records set values rather than add to
// them, so replaying a record twice (after a compaction raced an append) changes nothing.
//   {t:'add', item, meta}                   an accepted item (written and fsynced before any byte is sent)
//   {t:'set', id, item?, meta?}             new field values; null removes an optional field
//   {t:'del', id}                           removed from the queue (it stays in history)
//   {t:'pause', workspaceId, until}         a workspace rate-limited until `until` (epoch ms)
import { ACTIVE_STATES, FINISHED_STATES } from '../../portable/item-states';
import type { FailureReason, ItemState, QueueItem } from '../model';

export const JOURNAL_FILE = 'queue.jsonl';

/** What the queue keeps about an item beyond what the UI sees. */
export interface ItemMeta {
  /** The current attempt journaled "body complete": the service may have the whole request. */
  bodySent: boolean;
  /** Transient failures (other than rate limits) since the item was queued or retried by the person. */
  transientFailures: number;
  /** Rate-limit answers since the item was queued or retried by the person. */
  rateLimitWaits: number;
  /** How many times the item has finished; numbers its history entries. */
  finishes: number;
  /** Finished, but its history entry may not be written yet. */
  historyPending: boolean;
  /**
   * The workspace's name as the share's intake read it (the share's one read of the settings),
   * for its History entries; absent (an older journal, a retry): History reads it then.
   */
  workspaceName?: string;
  /**
   * The last checkpoint of an attempt at this item (opaque to the queue; null or absent: none).
   * Handed to the next attempt; cleared when the item finishes or the person retries it.
   */
  resume?: unknown;
}

export interface JournalEntry {
  item: QueueItem;
  meta: ItemMeta;
}

export type ItemPatch = { [K in keyof QueueItem]?: QueueItem[K] | null };

export type JournalRecord =
  | { t: 'add'; item: QueueItem; meta: ItemMeta }
  | { t: 'set'; id: string; item?: ItemPatch; meta?: Partial<ItemMeta> }
  | { t: 'del'; id: string }
  | { t: 'pause'; workspaceId: string; until: number };

export interface JournalState {
  /** In queue order. */
  entries: Map<string, JournalEntry>;
  /** Rate-limit pauses by workspace (epoch ms). */
  pauses: Map<string, number>;
  /** Records that could not be used (unknown kind, bad shape, unknown item). */
  skipped: number;
}

export function newMeta(): ItemMeta {
  return {
    bodySent: false,
    transientFailures: 0,
    rateLimitWaits: 0,
    finishes: 0,
    historyPending: false,
  };
}

const STATES = new Set<ItemState>([...ACTIVE_STATES, ...FINISHED_STATES]);

function isItem(value: unknown): value is QueueItem {
  const v = value as Partial<QueueItem> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.workspaceId === 'string' &&
    typeof v.path === 'string' &&
    typeof v.name === 'string' &&
    Array.isArray(v.channels) &&
    typeof v.size === 'number' &&
    typeof v.state === 'string' &&
    STATES.has(v.state as ItemState)
  );
}

function applyPatch(item: QueueItem, patch: ItemPatch): void {
  const target = item as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id') continue;
    if (value === null || value === undefined) delete target[key];
    else target[key] = value;
  }
}

/** Rebuilds the queue from the journal's records. */
export function replayJournal(records: readonly unknown[]): JournalState {
  const entries = new Map<string, JournalEntry>();
  const pauses = new Map<string, number>();
  let skipped = 0;
  for (const raw of records) {
    const r = raw as Partial<JournalRecord> & Record<string, unknown>;
    if (r.t === 'add' && isItem(r.item)) {
      const meta = { ...newMeta(), ...(r.meta as Partial<ItemMeta> | undefined) };
      // A repeated add (the record raced a compaction) keeps the item's place in the queue.
      entries.set(r.item.id, { item: { ...r.item }, meta });
    } else if (r.t === 'set' && typeof r.id === 'string' && entries.has(r.id)) {
      const entry = entries.get(r.id)!;
      if (r.item && typeof r.item === 'object') applyPatch(entry.item, r.item as ItemPatch);
      if (r.meta && typeof r.meta === 'object') Object.assign(entry.meta, r.meta);
      if (!STATES.has(entry.item.state)) {
        entries.delete(r.id);
        skipped++;
      }
    } else if (r.t === 'del' && typeof r.id === 'string') {
      entries.delete(r.id);
    } else if (
      r.t === 'pause' &&
      typeof r.workspaceId === 'string' &&
      typeof r.until === 'number'
    ) {
      pauses.set(r.workspaceId, r.until);
    } else {
      skipped++;
    }
  }
  return { entries, pauses, skipped };
}

const INTERRUPTED_AFTER_BODY: FailureReason = {
  class: 'unknown-outcome',
  code: 'interrupted_after_body',
  message:
    'Trayshare stopped after the whole file was sent and before the service answered, so it may have been delivered. Check the channels; retry only if it is missing.',
};

/** True when an attempt left a checkpoint for the next one. */
export function hasCheckpoint(meta: ItemMeta): boolean {
  return meta.resume !== undefined && meta.resume !== null;
}

/**
 * Brings a replayed queue to where a fresh process can carry on: an attempt cut off before its
 * body was complete goes again; one cut off after may have been delivered, so it becomes
 * 'unknown' and is never sent again on its own, unless it left a checkpoint: an attempt that
 * checkpoints promises that going on from its checkpoint never repeats what the service may
 * already have done (Slack's external protocol: completing a file_id twice cannot share it
 * twice), so that item goes again from the checkpoint. Items waiting for a new token are queued: this
 * process will find out again whether the token works; unless `keepTokenWaits` (a process that
 * only looks, which must show them waiting and not try them). Returns the items that just finished.
 */
export function recoverInterrupted(
  state: JournalState,
  now: number,
  opts: { keepTokenWaits?: boolean } = {},
): JournalEntry[] {
  const finished: JournalEntry[] = [];
  for (const entry of state.entries.values()) {
    const { item, meta } = entry;
    if (item.state === 'sending' && meta.bodySent && !hasCheckpoint(meta)) {
      item.state = 'unknown';
      item.error = { ...INTERRUPTED_AFTER_BODY };
      item.updatedAt = now;
      delete item.retryAt;
      meta.finishes++;
      meta.historyPending = true;
      finished.push(entry);
    } else if (item.state === 'sending') {
      item.state = 'queued';
      item.sent = 0;
      item.updatedAt = now;
      meta.bodySent = false;
    } else if (item.state === 'waiting' && item.retryAt === undefined && !opts.keepTokenWaits) {
      item.state = 'queued';
      delete item.error;
      item.updatedAt = now;
    }
  }
  for (const [workspaceId, until] of state.pauses) {
    if (until <= now) state.pauses.delete(workspaceId);
  }
  return finished;
}

/** The records that rebuild `state`: what a compaction writes. */
export function snapshotRecords(
  entries: Iterable<JournalEntry>,
  pauses: Iterable<[string, number]>,
): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const { item, meta } of entries) records.push({ t: 'add', item, meta });
  for (const [workspaceId, until] of pauses) records.push({ t: 'pause', workspaceId, until });
  return records;
}
