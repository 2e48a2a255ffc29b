// Where the window is and what it is sharing, in one place: new files, a closed sheet and a
// change of destination each move the window to another view, and each clears what the last
// view was saying. The shell's own state (settings, queue) lives in use-shell.ts.
import { useCallback, useState } from 'preact/hooks';
import type { View } from '../../preload/contract';
import { api, plainError } from './bridge';
import { useKeptDraft } from './kept-draft';
import type { Redirect } from './redirect';
import { discardCaptures } from './views/capture-preview';
import { editedOriginal, markEdited } from './views/edited-images';
import type { SheetDraft } from './views/share-sheet';

export function useAppState(startView: View, compact: boolean) {
  const [view, setView] = useState<View>(startView);
  const [paths, setPaths] = useState<string[]>([]);
  const [dropError, setDropError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const [redirect, setRedirect] = useState<Redirect | null>(null);
  // The share the sheet just sent: the queue lists it first, above what needs attention, so a
  // person who pressed Share sees it at once, even in a short window. Until they go elsewhere.
  const [justShared, setJustShared] = useState<string | null>(null);
  // What the sheet held when Esc closed it with files in it, and a stale one offered.
  const drafts = useKeptDraft(view, setPaths);

  const show = useCallback((next: View) => {
    setView(next);
    setJustShared(null);
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

  const { place } = drafts;
  const addPaths = useCallback(
    (added: string[]) => {
      // Where they go may take a look at the queue first (a kept draft: kept-draft.ts).
      if (added.length > 0) void Promise.resolve(place(added)).then(openWith);
    },
    [openWith, place],
  );

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
    // An edited capture takes its original with it.
    discardCaptures([path, ...(editedOriginal(path) ?? [])]);
    setPaths((current) => current.filter((p) => p !== path));
  };

  /** An edited image takes its original's place; an earlier edit of it goes. */
  const replaceEdited = (original: string, edited: string) => {
    markEdited(edited, original);
    if (editedOriginal(original) !== undefined) discardCaptures([original]);
    setPaths((current) => current.map((p) => (p === original ? edited : p)));
  };

  const closeSheet = (next: View, kept?: SheetDraft, shareId?: string) => {
    drafts.keep(kept, paths);
    if (kept) {
      show(next);
      return;
    }
    // A capture that was edited is not shared itself: it goes with the sheet.
    discardCaptures(paths.flatMap((p) => editedOriginal(p) ?? []));
    setPaths([]);
    // The 240×240 drop window has no room for a queue: it says the share is on its
    // way and is ready for the next drop.
    if (compact && next === 'queue') {
      show('drop');
      setConfirmation('Shared. Uploading in the background; the tray menu shows progress.');
    } else {
      show(next);
      if (shareId) setJustShared(shareId);
    }
  };

  return {
    view,
    setView,
    paths,
    dropError,
    setDropError,
    confirmation,
    redirect,
    justShared,
    drafts,
    show,
    addPaths,
    changeDestination,
    pickFiles,
    removePath,
    replaceEdited,
    closeSheet,
  };
}

export type AppState = ReturnType<typeof useAppState>;
