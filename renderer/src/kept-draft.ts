// A share sheet closed with Esc keeps its files and settings as a draft, and new files join it
// while it is fresh. A draft left for a while, or whose files were shared some other way since
// (the tray, a file manager, the command line), is not what a new paste or drop belongs to: the
// new files start a sheet of their own and the draft is offered there, never merged unasked.
import { useCallback, useRef, useState } from 'preact/hooks';
import type { View } from '../../preload/contract';
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

function uniquePaths(existing: string[], added: string[]): string[] {
  const seen = new Set(existing);
  return [...existing, ...added.filter((p) => !seen.has(p) && seen.add(p))];
}

type PathsUpdate = (current: string[]) => string[];

/**
 * The kept draft and the offered one. `place(added)` says where new files go: onto what the
 * sheet holds (at once when no draft could be stale), or, past a stale draft, into a sheet of
 * their own, the draft then offered.
 */
export function useKeptDraft(view: View, setPaths: (update: PathsUpdate) => void) {
  const draft = useRef<KeptDraft | null>(null);
  const [offered, setOffered] = useState<KeptDraft | null>(null);
  const viewNow = useRef(view);
  viewNow.current = view;
  const place = useCallback((added: string[]): PathsUpdate | Promise<PathsUpdate> => {
    const join: PathsUpdate = (current) => uniquePaths(current, added);
    const kept = draft.current;
    // An open sheet, or no draft: the files join what is there.
    if (!kept || viewNow.current === 'share') return join;
    return draftIsStale(kept).then((stale) => {
      if (!stale) return join;
      draft.current = null;
      setOffered(kept);
      return () => uniquePaths([], added);
    });
  }, []);
  return {
    sheet: draft.current?.sheet ?? null,
    offered,
    place,
    /** Esc kept `sheet` (with its files), or the sheet closed and nothing is kept. */
    keep(sheet: SheetDraft | undefined, paths: string[]) {
      draft.current = sheet ? { sheet, paths, at: Date.now() } : null;
      setOffered(null);
    },
    /** The offered draft's files join this share (its settings stay this sheet's). */
    take() {
      if (offered) setPaths((current) => uniquePaths(current, offered.paths));
      setOffered(null);
    },
    drop: () => setOffered(null),
  };
}

/** True when new files should not join `kept`: it is old, or some of its files went since. */
async function draftIsStale(kept: KeptDraft): Promise<boolean> {
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
