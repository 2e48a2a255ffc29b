import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QueueItem, Snapshot, View } from '../../preload/contract';
import { api, plainError } from './bridge';
import { ChannelNamesProvider } from './channel-names';
import { rescueFocus } from './focus-rescue';
import { Nav } from './nav';
import { pasteContent, savePastedImage } from './paste';
import type { Redirect } from './redirect';
import { offerSetupLink } from './setup-link-store';
import { tokenState } from './token-state';
import { Notice } from './ui/notice';
import { ChangeDestination } from './views/change-destination';
import { DropView } from './views/drop-view';
import { FirstRunView } from './views/first-run';
import { HistoryView } from './views/history-view';
import { PresetsView } from './views/presets-view';
import { QueueView } from './views/queue-view';
import { SettingsView } from './views/settings-view';
import { ShareSheet, type SheetDraft } from './views/share-sheet';
import { windowTitle } from './window-title';

const VIEWS: readonly View[] = ['drop', 'share', 'queue', 'history', 'presets', 'settings'];

// The shell may open a window straight on a view (`index.html#queue`); `#drop-window` is the
// small always-on-top drop target of Windows and Linux, which shows no navigation.
function initialView(): { view: View; compact: boolean } {
  const hash = location.hash.replace(/^#/, '');
  if (hash === 'drop-window') return { view: 'drop', compact: true };
  return { view: (VIEWS as string[]).includes(hash) ? (hash as View) : 'drop', compact: false };
}

function uniquePaths(existing: string[], added: string[]): string[] {
  const seen = new Set(existing);
  return [...existing, ...added.filter((p) => !seen.has(p) && seen.add(p))];
}

/**
 * Where a set-up link takes the window: Settings, whose sign-in form it fills in; files waiting
 * for a first workspace stay where they are, on Getting started, which holds the same form.
 */
const viewForSetupLink = (current: View): View => (current === 'share' ? current : 'settings');

export function App() {
  const start = useMemo(initialView, []);
  const [view, setView] = useState<View>(start.view);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [queue, setQueue] = useState<QueueItem[]>([]);
  const [historyVersion, setHistoryVersion] = useState(0);
  const [paths, setPaths] = useState<string[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [dropError, setDropError] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const [redirect, setRedirect] = useState<Redirect | null>(null);
  // What the sheet held when Esc closed it with files in it: it opens with it again.
  const draft = useRef<SheetDraft | null>(null);
  const dragDepth = useRef(0);

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

  const load = useCallback(async () => {
    try {
      const [snap, items] = await Promise.all([api().getSnapshot(), api().listQueue()]);
      setSnapshot(snap);
      setQueue(items);
      setLoadError(null);
    } catch (e) {
      setLoadError(plainError(e));
    }
  }, []);

  useEffect(() => {
    const bridge = api();
    const off = [
      bridge.on('settings-changed', setSnapshot),
      bridge.on('queue-changed', setQueue),
      bridge.on('history-changed', () => setHistoryVersion((v) => v + 1)),
      bridge.on('share-requested', ({ paths: shared }) => addPaths(shared)),
      bridge.on('show-view', (next) => setView(next)),
      bridge.on('setup-link', (link) => {
        offerSetupLink(link);
        setView(viewForSetupLink);
      }),
    ];
    void load();
    bridge.takePendingPaths().then(addPaths, (e) => setDropError(plainError(e)));
    // A set-up link that opened the app while this page loaded: Settings, filled in from it.
    bridge.takeSetupLink().then(
      (link) => {
        if (!link) return;
        offerSetupLink(link);
        setView(viewForSetupLink);
      },
      () => undefined,
    );
    // Notes are a courtesy: a shell that cannot give them shows none.
    bridge.desktopNotes().then(setNotes, () => setNotes([]));
    return () => {
      for (const unsubscribe of off) unsubscribe();
    };
  }, [load, addPaths]);

  // The whole window takes drops, whatever view is showing: people aim at the window, not a
  // box. Listening on the document also keeps a stray drop from navigating to the file.
  useEffect(() => {
    const onDragEnter = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      dragDepth.current++;
      setDragging(true);
    };
    const onDragLeave = () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    };
    const onDragOver = (e: DragEvent) => {
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      const dropped = files.map((f) => api().pathForFile(f)).filter((p) => p !== '');
      if (dropped.length === 0) {
        setDropError('Only files and folders can be shared; that drop held neither.');
        return;
      }
      addPaths(dropped);
    };
    document.addEventListener('dragenter', onDragEnter);
    document.addEventListener('dragleave', onDragLeave);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('dragenter', onDragEnter);
      document.removeEventListener('dragleave', onDragLeave);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('drop', onDrop);
    };
  }, [addPaths]);

  // Ctrl/Cmd+V anywhere in the window shares what the clipboard holds: files like a drop, an
  // image (a screenshot) as a PNG file. Text pasted into a field is left to the field.
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (!e.clipboardData) return;
      const content = pasteContent(e.clipboardData);
      if (content.kind === 'none') {
        const target = e.target;
        const inField =
          target instanceof HTMLElement &&
          (target.isContentEditable || target.matches('input, textarea, select'));
        if (!inField && !content.text) {
          setView('drop');
          setDropError('The clipboard holds no files and no image to share.');
        }
        return;
      }
      e.preventDefault();
      if (content.kind === 'paths') {
        addPaths(content.paths);
        return;
      }
      savePastedImage(content.file).then(
        (path) => addPaths([path]),
        (error: unknown) => {
          setView('drop');
          setDropError(plainError(error));
        },
      );
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [addPaths]);

  // A view's sticky footer (Share, Save) sits over the bottom of the scrolling area: a field
  // that takes focus under it is scrolled up until it is clear of the footer.
  const mainRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target;
      const footer = main.querySelector('.sheet__footer');
      if (!(target instanceof HTMLElement) || !footer || footer.contains(target)) return;
      const hidden = target.getBoundingClientRect().bottom - footer.getBoundingClientRect().top;
      if (hidden > -8) main.scrollTop += hidden + 8;
    };
    main.addEventListener('focusin', onFocusIn);
    return () => main.removeEventListener('focusin', onFocusIn);
  }, []);

  // Every view opens at its top (the queue after Share shows what was just sent), with focus
  // on its title, so the first Tab reaches its first control (Choose files on the drop view);
  // the share sheet focuses its comment, where Ctrl+Enter shares.
  useEffect(() => (mainRef.current ? rescueFocus(mainRef.current) : undefined), []);

  // The sheet that replaces the set-up once a workspace is saved counts as a view of its own.
  const loaded = snapshot !== null;
  const page =
    view !== 'share'
      ? view
      : snapshot?.workspaces.length === 0
        ? 'first-run'
        : redirect
          ? 'redirect'
          : view;
  useEffect(() => {
    const main = mainRef.current;
    if (!main || !loaded) return;
    main.scrollTop = 0;
    const target =
      main.querySelector<HTMLElement>('#share-comment, #redirect-channels') ??
      main.querySelector<HTMLElement>('h1');
    target?.focus({ preventScroll: true });
  }, [page, loaded]);

  const changeDestination = useCallback((next: Redirect) => {
    setRedirect(next);
    setView('share');
  }, []);

  // The page's title is the window's title (taskbars, Alt+Tab, screen readers).
  useEffect(() => {
    document.title = windowTitle(view, start.compact);
  }, [view, start.compact]);

  const pickFiles = useCallback(async () => {
    try {
      addPaths(await api().pickFiles());
    } catch (e) {
      setDropError(plainError(e));
    }
  }, [addPaths]);

  const body = (() => {
    if (!snapshot) {
      return (
        <section class="view view--centered" aria-labelledby="loading-title">
          <h1 id="loading-title" class="view__title">
            Trayshare
          </h1>
          {loadError ? (
            <>
              <Notice tone="error">Could not load your settings: {loadError}</Notice>
              <button type="button" class="button" onClick={() => void load()}>
                Try again
              </button>
            </>
          ) : (
            <p class="muted">Loading…</p>
          )}
        </section>
      );
    }
    switch (view) {
      case 'drop':
        return (
          <DropView
            snapshot={snapshot}
            queue={queue}
            error={dropError}
            confirmation={confirmation}
            compact={start.compact}
            historyVersion={historyVersion}
            onPick={pickFiles}
            onShow={show}
          />
        );
      case 'share':
        if (redirect) {
          return <ChangeDestination snapshot={snapshot} redirect={redirect} onClose={show} />;
        }
        if (snapshot.workspaces.length === 0) {
          return <FirstRunView snapshot={snapshot} paths={paths} onShow={show} />;
        }
        return (
          <ShareSheet
            snapshot={snapshot}
            paths={paths}
            onPick={pickFiles}
            onRemove={(path) => setPaths((current) => current.filter((p) => p !== path))}
            draft={draft.current}
            onClose={(next, kept) => {
              draft.current = kept ?? null;
              if (kept) {
                show(next);
                return;
              }
              setPaths([]);
              // The 240×240 drop window has no room for a queue: it says the share is on its
              // way and is ready for the next drop.
              if (start.compact && next === 'queue') {
                show('drop');
                setConfirmation(
                  'Shared. Uploading in the background; the tray menu shows progress.',
                );
              } else show(next);
            }}
            onShow={show}
          />
        );
      case 'queue':
        return (
          <QueueView
            snapshot={snapshot}
            queue={queue}
            onShow={show}
            onRedirect={changeDestination}
          />
        );
      case 'history':
        return (
          <HistoryView
            snapshot={snapshot}
            version={historyVersion}
            onShow={show}
            onRedirect={changeDestination}
          />
        );
      case 'presets':
        return <PresetsView snapshot={snapshot} onShow={show} />;
      case 'settings':
        return <SettingsView snapshot={snapshot} queue={queue} onShow={show} />;
    }
  })();

  return (
    <div class={`app${start.compact ? ' app--compact' : ''}${dragging ? ' app--dragging' : ''}`}>
      {start.compact ? null : (
        <Nav view={view} queue={queue} hasPaths={paths.length > 0} onShow={show} />
      )}
      <main class="app__main" ref={mainRef} aria-busy={snapshot === null}>
        {!start.compact && (view === 'drop' || view === 'settings')
          ? notes.map((note) => (
              <Notice key={note} tone="info">
                {note}
              </Notice>
            ))
          : null}
        <ChannelNamesProvider
          workspaceIds={snapshot?.workspaces.map((w) => w.id) ?? []}
          // A token saved or refused changes what the lists can say.
          refresh={`${view} ${snapshot?.workspaces.map(tokenState).join(' ')}`}
        >
          {body}
        </ChannelNamesProvider>
      </main>
      <div class="drop-overlay" aria-hidden="true">
        <div class="drop-overlay__label">Drop to share</div>
      </div>
    </div>
  );
}
