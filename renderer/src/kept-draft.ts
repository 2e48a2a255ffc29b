// A share sheet closed with Esc keeps its files and settings as a draft, and new files join it
// while it is fresh. A draft left for a while, or whose files were shared some other way since
// (the tray, a file manager, the command line), is not what a new paste or drop belongs to: the
// new files start a sheet of their own and the draft is offered there, never merged unasked.
import { api } from './bridge';
import type { SheetDraft } from './views/share-draft';

/** How long a kept draft takes new files without asking. */
const DRAFT_FRESH_MS = 10 * 60_000;

export interface KeptDraft {
  sheet: SheetDraft;
  paths: string[];
  /** When Esc kept it (Date.now()). */
  at: number;
}

/** True when new files should not join `kept`: it is old, or some of its files went since. */
export async function draftIsStale(kept: KeptDraft): Promise<boolean> {
  if (Date.now() - kept.at > DRAFT_FRESH_MS) return true;
  const paths = new Set(kept.paths);
  try {
    const [queue, history] = await Promise.all([
      api().listQueue(),
      api().listHistory({ limit: 200 }),
    ]);
    return (
      queue.some((i) => i.createdAt >= kept.at && paths.has(i.path)) ||
      history.some((e) => e.at >= kept.at && paths.has(e.path))
    );
  } catch {
    // Not known: the files join the draft, as they always did.
    return false;
  }
}
