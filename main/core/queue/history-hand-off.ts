// The hand-off of a finished item to History: its line (historyRecord, writeHistory) and the
// "history pending" marks of finished items, cleared in batches. A finished item's outcome
// is journaled (fsynced) with its mark set; its History line is then written without an fsync of
// its own. The journal's durable outcome with its mark is what keeps the line: on the next open,
// every item still marked has its line written again, which History ignores when it has it
// (one id per finish). So a mark may be cleared in the journal only once its line is on disk:
// cleared before, a power loss could keep the cleared mark (a later fsync of the journal makes it
// durable) and lose the line. Lines written close together are made durable with one fsync of
// History, after a short wait, and their marks cleared with one journal write after it.
import type { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../model';
import type { Entry, FinishedState, ItemStore } from './item-store';

/** How long written lines wait for History's fsync: many files' lines share it. */
const SYNC_AFTER_MS = 100;

export class HistoryMarks {
  /** Lines written, not yet on disk: the item and the finish its line is for. */
  private written: { entry: Entry; finishes: number }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly history: HistoryStore,
    private readonly store: ItemStore<Entry>,
    /** After marks were cleared: the journal may be compacted. */
    private readonly cleared: () => Promise<void>,
  ) {}

  /** The entry's History line for its current finish is written; its mark waits for the fsync. */
  lineWritten(entry: Entry): void {
    this.written.push({ entry, finishes: entry.meta.finishes });
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => {});
    }, SYNC_AFTER_MS);
    this.timer.unref?.();
  }

  /**
   * Makes every line written so far durable, then clears their marks. Called before anything
   * that needs the marks cleared (removing finished items, a retry) and when the queue closes.
   */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing) await this.flushing.catch(() => {});
    const batch = this.written;
    this.written = [];
    if (batch.length === 0) return;
    const run = this.clear(batch);
    this.flushing = run;
    try {
      await run;
    } finally {
      this.flushing = undefined;
    }
  }

  private async clear(batch: { entry: Entry; finishes: number }[]): Promise<void> {
    try {
      await this.history.sync();
    } catch {
      // Not on disk: the marks stay, and the next open writes the lines again.
      return;
    }
    // An item retried and finished again since has a newer line, with its own mark.
    const done = batch
      .filter(({ entry, finishes }) => entry.meta.finishes === finishes)
      .map(({ entry }) => entry);
    if (done.length === 0) return;
    for (const entry of done) entry.meta.historyPending = false;
    await this.store
      .append(
        done.map((e) => ({ t: 'set', id: e.item.id, meta: { historyPending: false } })),
        false,
      )
      .catch(() => {});
    await this.cleared();
  }
}

// The hand-off of a finished item to History. The journal marks it "history pending" with its
// outcome; the line goes to History, then the mark is cleared once the line is on disk
// (HistoryMarks, above). A line History could not take stays pending and is written on the next
// open, so no outcome is missing from History and a replay never writes one twice (each finish
// has its own id).
export function historyRecord(
  entry: Entry,
  workspaceName: ((workspaceId: string) => string | undefined) | undefined,
): HistoryEntry {
  const { item, meta } = entry;
  return {
    // Numbered by finish: an item the person retried gets a second entry, a replay does not.
    id: `${item.id}.${meta.finishes}`,
    shareId: item.shareId,
    at: item.updatedAt,
    workspaceId: item.workspaceId,
    // As the share's intake read it; else now. Empty: the history store names it (its own
    // resolver, else the id).
    workspaceName: meta.workspaceName ?? workspaceName?.(item.workspaceId) ?? '',
    channels: [...item.channels],
    ...(item.labels ? { labels: { ...item.labels } } : {}),
    comment: item.comment,
    path: item.path,
    name: item.name,
    size: item.size,
    outcome: item.state as FinishedState,
    ...(item.error ? { error: structuredClone(item.error) } : {}),
    ...(item.file?.permalink ? { permalink: item.file.permalink } : {}),
    ...(item.stripped ? { stripped: item.stripped.removed } : {}),
    ...(item.file?.id ? { fileId: item.file.id } : {}),
  };
}

export async function writeHistory(
  entry: Entry,
  record: HistoryEntry,
  to: { history: HistoryStore; marks: HistoryMarks; compact: () => Promise<void> },
): Promise<void> {
  try {
    // No fsync of its own: the journal's durable mark brings the line back after a power loss.
    await to.history.append(record, { sync: false });
  } catch {
    // Kept pending: the next open writes it.
    return;
  }
  if (record.id !== `${entry.item.id}.${entry.meta.finishes}`) return;
  to.marks.lineWritten(entry);
  await to.compact();
}
