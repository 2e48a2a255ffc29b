// The view the window shows, chosen from the navigation's view and what the share needs: the
// sheet, the first-run set-up while there is no workspace, or a change of destination. Before
// the settings arrive, the window says it is loading, or why it could not.
import type { QueueItem, Snapshot } from '../../preload/contract';
import type { AppState } from './app-state';
import { Notice } from './ui/notice';
import { ChangeDestination } from './views/change-destination';
import { DraftOffer } from './views/draft-offer';
import { DropView } from './views/drop-view';
import { FirstRunView } from './views/first-run';
import { HistoryView } from './views/history-view';
import { PresetsView } from './views/presets-view';
import { QueueView } from './views/queue-view';
import { SettingsView } from './views/settings-view';
import { ShareSheet } from './views/share-sheet';

export function Loading(props: { error: string | null; onRetry: () => void }) {
  return (
    <section class="view view--centered" aria-labelledby="loading-title">
      <h1 id="loading-title" class="view__title">
        Trayshare
      </h1>
      {props.error ? (
        <>
          <Notice tone="error">Could not load your settings: {props.error}</Notice>
          <button type="button" class="button" onClick={props.onRetry}>
            Try again
          </button>
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}

export function CurrentView(props: {
  app: AppState;
  snapshot: Snapshot;
  queue: QueueItem[];
  historyVersion: number;
  compact: boolean;
}) {
  const { app, snapshot, queue, historyVersion } = props;
  switch (app.view) {
    case 'drop':
      return (
        <DropView
          snapshot={snapshot}
          queue={queue}
          error={app.dropError}
          confirmation={app.confirmation}
          compact={props.compact}
          historyVersion={historyVersion}
          onPick={app.pickFiles}
          onShow={app.show}
        />
      );
    case 'share':
      if (app.redirect) {
        return <ChangeDestination snapshot={snapshot} redirect={app.redirect} onClose={app.show} />;
      }
      if (snapshot.workspaces.length === 0) {
        return <FirstRunView snapshot={snapshot} paths={app.paths} onShow={app.show} />;
      }
      return (
        <ShareSheet
          snapshot={snapshot}
          paths={app.paths}
          onPick={app.pickFiles}
          onRemove={app.removePath}
          onEdited={app.replaceEdited}
          draft={app.drafts.sheet}
          offer={
            <DraftOffer
              offered={app.drafts.offered}
              onTake={app.drafts.take}
              onDrop={app.drafts.drop}
            />
          }
          onClose={app.closeSheet}
          onShow={app.show}
        />
      );
    case 'queue':
      return (
        <QueueView
          snapshot={snapshot}
          queue={queue}
          justShared={app.justShared}
          onShow={app.show}
          onRedirect={app.changeDestination}
        />
      );
    case 'history':
      return (
        <HistoryView
          snapshot={snapshot}
          version={historyVersion}
          onShow={app.show}
          onRedirect={app.changeDestination}
        />
      );
    case 'presets':
      return <PresetsView snapshot={snapshot} onShow={app.show} />;
    case 'settings':
      return <SettingsView snapshot={snapshot} queue={queue} onShow={app.show} />;
  }
}
