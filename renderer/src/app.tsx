import { useEffect, useMemo } from 'preact/hooks';
import type { View } from '../../preload/contract';
import { useAppState } from './app-state';
import { ChannelNamesProvider } from './channel-names';
import { CurrentView, Loading } from './current-view';
import { useMainFocus } from './main-focus';
import { Nav } from './nav';
import { tokenState } from './token-state';
import { Notice } from './ui/notice';
import { useShell } from './use-shell';
import { useDropAnywhere, usePasteAnywhere } from './window-input';
import { windowTitle } from './window-title';

const VIEWS: readonly View[] = ['drop', 'share', 'queue', 'history', 'presets', 'settings'];

// The shell may open a window straight on a view (`index.html#queue`); `#drop-window` is the
// small always-on-top drop target of Windows and Linux, which shows no navigation.
function initialView(): { view: View; compact: boolean } {
  const hash = location.hash.replace(/^#/, '');
  if (hash === 'drop-window') return { view: 'drop', compact: true };
  return { view: (VIEWS as string[]).includes(hash) ? (hash as View) : 'drop', compact: false };
}

export function App() {
  const start = useMemo(initialView, []);
  const app = useAppState(start.view, start.compact);
  const { view, addPaths, setView, setDropError } = app;
  const { snapshot, queue, historyVersion, loadError, notes, load } = useShell(
    addPaths,
    setView,
    setDropError,
  );
  // The whole window takes drops and pastes, whatever view is showing.
  const dragging = useDropAnywhere(addPaths, setDropError);
  usePasteAnywhere(addPaths, setView, setDropError);

  // The sheet that replaces the set-up once a workspace is saved counts as a view of its own.
  const loaded = snapshot !== null;
  const page =
    view !== 'share'
      ? view
      : snapshot?.workspaces.length === 0
        ? 'first-run'
        : app.redirect
          ? 'redirect'
          : view;
  const mainRef = useMainFocus(page, loaded);

  // The page's title is the window's title (taskbars, Alt+Tab, screen readers).
  useEffect(() => {
    document.title = windowTitle(view, start.compact);
  }, [view, start.compact]);

  return (
    <div class={`app${start.compact ? ' app--compact' : ''}${dragging ? ' app--dragging' : ''}`}>
      {start.compact ? null : (
        <Nav view={view} queue={queue} hasPaths={app.paths.length > 0} onShow={app.show} />
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
          {snapshot ? (
            <CurrentView
              app={app}
              snapshot={snapshot}
              queue={queue}
              historyVersion={historyVersion}
              compact={start.compact}
            />
          ) : (
            <Loading error={loadError} onRetry={() => void load()} />
          )}
        </ChannelNamesProvider>
      </main>
      <div class="drop-overlay" aria-hidden="true">
        <div class="drop-overlay__label">Drop to share</div>
      </div>
    </div>
  );
}
