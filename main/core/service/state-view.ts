// The queue and history as they were last saved, read without writing a byte: no lock, no
// repair, no compaction. For looking at them where the state folder cannot be written (a
// read-only disk), where opening the service, which must write all three, fails; and while another
// command holds the queue, which `queue` and `history` show rather than wait for.
import { join } from 'node:path';
import type { AppService } from '../api';
import { readHistory } from '../history/history-store';
import { readJsonl } from '../history/jsonl-file';
import { JOURNAL_FILE, recoverInterrupted, replayJournal } from '../queue/journal';

export type StateView = Pick<AppService, 'listQueue' | 'listHistory'>;

/** `stateDir` as the service would lay it out (queue/ and history/ below it). */
export async function readStateView(
  stateDir: string,
  opts: {
    /** Another process holds the queue and works it: what it sends is sending, not interrupted. */
    holderWorking?: boolean;
  } = {},
): Promise<StateView> {
  const journal = await readJsonl(join(stateDir, 'queue', JOURNAL_FILE));
  const state = replayJournal(journal.values);
  // As a process opening the queue would see it: an interrupted attempt is queued again, or
  // unknown when its whole body had gone.
  if (!opts.holderWorking) recoverInterrupted(state, Date.now(), { keepTokenWaits: true });
  const items = [...state.entries.values()].map((e) => structuredClone(e.item));
  const history = await readHistory({ dir: join(stateDir, 'history') });
  return {
    listQueue: async () => structuredClone(items),
    listHistory: async (query) => history.list(query),
  };
}
