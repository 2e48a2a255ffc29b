// What happened to each finished upload: one JSON line per entry in `history.jsonl`, fsynced on
// append unless the caller makes it durable otherwise (the queue: see history-hand-off.ts),
// rewritten (newest `maxEntries` kept) when the file has grown past its bound or a crash left a
// torn last line.

import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinishedState } from '../../portable/item-states';
import { damagedName } from '../damaged-name';
import type { HistoryEntry } from '../model';
import { JsonlAppender, readJsonl } from './jsonl-file';

interface HistoryQuery {
  /** Words that must all appear in the file name, a channel, the workspace, the comment or the error code. */
  search?: string;
  limit?: number;
}

export interface HistoryStore {
  /**
   * Adds an entry; an entry whose id is already stored is ignored (a replay after a crash). An
   * entry for an item already in history (ids `ITEM.N`: a retry of that item) replaces its row.
   * Resolves once the line is on disk (fsynced); with `sync: false`, once it is written (a
   * crashed process keeps it, a machine that loses power may not: see `sync`).
   */
  append(entry: HistoryEntry, opts?: { sync?: boolean }): Promise<void>;
  /** Resolves once every line appended before this call is on disk: one fsync for all. */
  sync(): Promise<void>;
  /** Newest first. */
  list(query?: HistoryQuery): HistoryEntry[];
  onChange(listener: () => void): () => void;
  /** What opening repaired, if the file was damaged (said once: the repaired file is clean). */
  repairNotice(): string | undefined;
  close(): Promise<void>;
}

export interface HistoryStoreOptions {
  dir: string;
  /** Entries kept; older ones are dropped. Default 5000. */
  maxEntries?: number;
  /** Names the workspace of an entry that comes without a name (default: its id). */
  workspaceName?: (workspaceId: string) => string | undefined;
  /** A channel's name (without '#') for search, when known: history is searched by name too. */
  channelName?: (workspaceId: string, channelId: string) => string | undefined;
}

export const HISTORY_FILE = 'history.jsonl';
const DEFAULT_MAX_HISTORY_ENTRIES = 5000;

function isHistoryEntry(value: unknown): value is HistoryEntry {
  const v = value as Partial<HistoryEntry>;
  return (
    typeof v.id === 'string' &&
    typeof v.at === 'number' &&
    typeof v.name === 'string' &&
    Array.isArray(v.channels) &&
    typeof v.outcome === 'string' &&
    isFinishedState(v.outcome)
  );
}

function haystack(e: HistoryEntry, opts: HistoryStoreOptions): string {
  const names = e.channels.map((c) => {
    const name = opts.channelName?.(e.workspaceId, c);
    return name ? `#${name}` : '';
  });
  // The workspace by the name it had then and by the one it has now (it may have been renamed).
  const workspace = [e.workspaceName ?? '', opts.workspaceName?.(e.workspaceId) ?? ''];
  return [e.name, ...e.channels, ...names, ...workspace, e.comment ?? '', e.error?.code ?? '']
    .join('\n')
    .toLowerCase();
}

/** The queue numbers an item's finishes `ITEM.N`; all of them are one row. */
function itemKey(id: string): string {
  const dot = id.lastIndexOf('.');
  return dot > 0 && /^\d+$/.test(id.slice(dot + 1)) ? id.slice(0, dot) : id;
}

/** Later entries of the same item replace earlier ones, keeping the later position. */
function latestPerItem(entries: HistoryEntry[]): HistoryEntry[] {
  const last = new Map<string, number>();
  for (const [i, e] of entries.entries()) last.set(itemKey(e.id), i);
  return entries.filter((e, i) => last.get(itemKey(e.id)) === i);
}

interface Loaded {
  /** Oldest first, one per item, at most maxEntries. */
  entries: HistoryEntry[];
  ids: Set<string>;
  /** Lines in the file. */
  stored: number;
  /** The file needs a rewrite: a torn line, lines skipped, or entries dropped. */
  untidy: boolean;
  /** Lines that could not be read (a torn last line, or not an entry): damage to say. */
  damaged: number;
}

async function load(path: string, maxEntries: number): Promise<Loaded> {
  const read = await readJsonl(path);
  // Oldest first, as in the file; a rewrite racing an append can store an entry twice.
  let entries: HistoryEntry[] = [];
  const ids = new Set<string>();
  let skipped = read.bad;
  for (const value of read.values) {
    if (!isHistoryEntry(value)) {
      skipped++;
      continue;
    }
    if (ids.has(value.id)) continue;
    ids.add(value.id);
    entries.push(value);
  }
  const stored = read.values.length;
  entries = latestPerItem(entries);
  if (entries.length > maxEntries) {
    for (const e of entries.slice(0, entries.length - maxEntries)) ids.delete(e.id);
    entries = entries.slice(-maxEntries);
  }
  return {
    entries,
    ids,
    stored,
    untidy: read.torn || skipped > 0 || stored !== entries.length,
    damaged: (read.torn ? 1 : 0) + skipped,
  };
}

/** Keeps a damaged history beside the repaired one, and says what was done. */
async function keepDamaged(path: string, lines: number): Promise<string> {
  const copy = damagedName(path);
  const kept = await copyFile(path, copy).then(
    () => `a copy of the damaged file is kept at ${copy}`,
    (error: NodeJS.ErrnoException) => `no copy could be kept (${error.code ?? error.message})`,
  );
  return `The upload history ${path} was damaged (${lines} line${lines === 1 ? '' : 's'} could not be read) and has been repaired; ${kept}. Those uploads are missing from the history.`;
}

function listed(
  entries: readonly HistoryEntry[],
  query: HistoryQuery,
  opts: HistoryStoreOptions,
): HistoryEntry[] {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  const out: HistoryEntry[] = [];
  for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
    const e = entries[i]!;
    if (words.length > 0) {
      const text = haystack(e, opts);
      if (!words.every((w) => text.includes(w))) continue;
    }
    out.push(structuredClone(e));
  }
  return out;
}

/**
 * The history as stored, without writing anything (no repair, no folder created): for looking
 * at it on a read-only disk.
 */
export async function readHistory(opts: HistoryStoreOptions): Promise<Pick<HistoryStore, 'list'>> {
  const maxEntries = Math.max(1, Math.floor(opts.maxEntries ?? DEFAULT_MAX_HISTORY_ENTRIES));
  const { entries } = await load(join(opts.dir, HISTORY_FILE), maxEntries);
  return { list: (query = {}) => listed(entries, query, opts) };
}

/** The item's entry moved to the newest end; the oldest beyond `maxEntries` let go. */
function keepNewest(
  byItem: Map<string, HistoryEntry>,
  ids: Set<string>,
  entry: HistoryEntry,
  maxEntries: number,
): void {
  ids.add(entry.id);
  const key = itemKey(entry.id);
  byItem.delete(key);
  byItem.set(key, entry);
  for (const [oldest, e] of byItem) {
    if (byItem.size <= maxEntries) break;
    byItem.delete(oldest);
    ids.delete(e.id);
  }
}

export async function openHistoryStore(opts: HistoryStoreOptions): Promise<HistoryStore> {
  const maxEntries = Math.max(1, Math.floor(opts.maxEntries ?? DEFAULT_MAX_HISTORY_ENTRIES));
  await mkdir(opts.dir, { recursive: true });
  const path = join(opts.dir, HISTORY_FILE);
  const loaded = await load(path, maxEntries);
  // Oldest first, one per item, by item: a Map keeps insertion order, so an item's new entry is
  // moved to the end without searching the whole history on every append (5000 entries).
  const byItem = new Map(loaded.entries.map((e) => [itemKey(e.id), e]));
  const entries = () => [...byItem.values()];
  const { ids, stored } = loaded;

  const notice = loaded.damaged > 0 ? await keepDamaged(path, loaded.damaged) : undefined;
  const file = await JsonlAppender.open(path);
  // Compact when appends have grown the file a quarter past its bound (at least 50 lines), so
  // a full history is not rewritten on every upload.
  const slack = Math.max(50, Math.ceil(maxEntries / 4));
  // Lines in the file when it was opened or last rewritten (appends counted by the appender).
  let baseLines = stored;
  const snapshot = () => {
    baseLines = byItem.size;
    return entries();
  };
  if (loaded.untidy) await file.rewrite(snapshot);

  let compacting: Promise<void> | null = null;
  const compactIfLarge = async () => {
    if (compacting || baseLines + file.appendedSinceRewrite <= maxEntries + slack) return;
    compacting = file.rewrite(snapshot).finally(() => {
      compacting = null;
    });
    await compacting;
  };

  const listeners = new Set<() => void>();
  let closed = false;

  return {
    async append(entry, appendOpts = {}) {
      if (closed) throw new Error('The history is closed.');
      if (ids.has(entry.id)) return;
      const copy = structuredClone(entry);
      if (!copy.workspaceName) {
        copy.workspaceName = opts.workspaceName?.(copy.workspaceId) ?? copy.workspaceId;
      }
      keepNewest(byItem, ids, copy, maxEntries);
      await file.append([copy], { sync: appendOpts.sync !== false });
      await compactIfLarge();
      for (const l of listeners) {
        try {
          l();
        } catch {
          // a listener's failure is its own
        }
      }
    },
    list(query = {}) {
      return listed(entries(), query, opts);
    },
    sync() {
      if (closed) return Promise.reject(new Error('The history is closed.'));
      return file.sync();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    repairNotice: () => notice,
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await file.close();
    },
  };
}
