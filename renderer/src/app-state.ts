// Where the window is and what it is sharing, in one place: new files, a closed sheet and a
// change of destination each move the window to another view, and each clears what the last
// view was saying. The shell's own state (settings, queue) lives in use-shell.ts.
import { useCallback, useRef, useState } from 'preact/hooks';
import type { View } from '../../preload/contract';
import { api, plainError } from './bridge';
import type { Redirect } from './redirect';
import { discardCaptures } from './views/capture-preview';
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
  const draft = useRef<SheetDraft | null>(null);

  const show = useCallback((next: View) => {
    setView(next);
    setRedirect(null);
    setDropError(null);
  }, []);

  const addPaths = useCallback((added: string[]) => {
    if (added.length === 0) return;
    setPaths((current) => uniquePaths(current, added));
    // New files start a new share; a refused one stays in the queue to change later.
    setRedirect(null);
    setView('share');
    setDropError(null);
    setConfirmation(null);
  }, []);

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

  const removePath = (path: string) => {
    discardCaptures([path]);
    setPaths((current) => current.filter((p) => p !== path));
  };

  const closeSheet = (next: View, kept?: SheetDraft) => {
    draft.current = kept ?? null;
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
    draft: draft.current,
    show,
    addPaths,
    changeDestination,
    pickFiles,
    removePath,
    closeSheet,
  };
}

export type AppState = ReturnType<typeof useAppState>;
