// Where the window is and what it is sharing, in one place: new files, a closed sheet and a
// change of destination each move the window to another view, and each clears what the last
// view was saying. The shell's own state (settings, queue) lives in use-shell.ts.
import { useCallback, useRef, useState } from 'preact/hooks';
import type { View } from '../../preload/contract';
import { api, plainError } from './bridge';
import { draftIsStale, type KeptDraft } from './kept-draft';
import type { Redirect } from './redirect';
import type { SheetDraft } from './views/share-sheet';

function uniquePaths(existing: string[], added: string[]): string[] {
  const seen = new Set(existing);
  return [...existing, ...added.filter((p) => !seen.has(p) && seen.add(p))];
}

export function useAppState(startView: View, compact: boolean) {
  const [view, setView] = useState<View>(startView);
  const [paths, setPaths] = useState<string[]>([]);
  const [dropError, setDropError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const [redirect, setRedirect] = useState<Redirect | null>(null);
  // What the sheet held when Esc closed it with files in it: it opens with it again.
  const draft = useRef<KeptDraft | null>(null);
  // A stale draft new files did not join: the new sheet offers it (kept-draft.ts).
  const [offered, setOffered] = useState<KeptDraft | null>(null);
  const viewNow = useRef(view);
  viewNow.current = view;

  const show = useCallback((next: View) => {
    setView(next);
    setRedirect(null);
    setDropError(null);
  }, []);

  const openWith = useCallback((update: (current: string[]) => string[]) => {
    setPaths(update);
    // New files start a new share; a refused one stays in the queue to change later.
    setRedirect(null);
    setView('share');
    setDropError(null);
    setConfirmation(null);
  }, []);

  const addPaths = useCallback(
    (added: string[]) => {
      if (added.length === 0) return;
      const kept = draft.current;
      // An open sheet, or no draft: the files join what is there.
      if (!kept || viewNow.current === 'share') {
        openWith((current) => uniquePaths(current, added));
        return;
      }
      void draftIsStale(kept).then((stale) => {
        if (!stale) {
          openWith((current) => uniquePaths(current, added));
          return;
        }
        draft.current = null;
        setOffered(kept);
        openWith(() => uniquePaths([], added));
      });
    },
    [openWith],
  );

  /** The offered draft's files join this share (its settings stay this sheet's). */
  const takeOffered = () => {
    if (offered) setPaths((current) => uniquePaths(current, offered.paths));
    setOffered(null);
  };

  const changeDestination = useCallback((next: Redirect) => {
    setRedirect(next);
    setView('share');
  }, []);

  const pickFiles = useCallback(async () => {
    try {
      addPaths(await api().pickFiles());
    } catch (e) {
      setDropError(plainError(e));
    }
  }, [addPaths]);

  const removePath = (path: string) => setPaths((current) => current.filter((p) => p !== path));

  const closeSheet = (next: View, kept?: SheetDraft) => {
    draft.current = kept ? { sheet: kept, paths, at: Date.now() } : null;
    setOffered(null);
    if (kept) {
      show(next);
      return;
    }
    setPaths([]);
    // The 240×240 drop window has no room for a queue: it says the share is on its
    // way and is ready for the next drop.
    if (compact && next === 'queue') {
      show('drop');
      setConfirmation('Shared. Uploading in the background; the tray menu shows progress.');
    } else show(next);
  };

  return {
    view,
    setView,
    paths,
    dropError,
    setDropError,
    confirmation,
    redirect,
    draft: draft.current?.sheet ?? null,
    offered,
    takeOffered,
    dropOffered: () => setOffered(null),
    show,
    addPaths,
    changeDestination,
    pickFiles,
    removePath,
    closeSheet,
  };
}

export type AppState = ReturnType<typeof useAppState>;
