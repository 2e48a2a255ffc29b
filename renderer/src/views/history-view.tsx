import { useEffect, useState } from 'preact/hooks';
import type { HistoryEntry, Snapshot, View } from '../../../preload/contract';
import { api, plainError } from '../bridge';
import { groupHistory } from '../history-groups';
import { itemIdOf, type Redirect, redirectOf } from '../redirect';
import { Notice } from '../ui/notice';
import { workspaceName } from '../workspace-name';
import { HistoryRow } from './history-row';
import { HistoryShareRow } from './history-share-row';

const LIMIT = 200;

export function HistoryView(props: {
  snapshot: Snapshot;
  version: number;
  onShow: (view: View) => void;
  onRedirect: (redirect: Redirect) => void;
}) {
  const [search, setSearch] = useState('');
  const { entries, error } = useHistoryEntries(search, props.version);

  return (
    <section class="view" aria-labelledby="history-title">
      <header class="view__header">
        <h1 id="history-title" class="view__title" tabIndex={-1}>
          History
        </h1>
        <div class="view__tools">
          <label for="history-search" class="visually-hidden">
            Search history
          </label>
          <input
            id="history-search"
            type="search"
            class="input input--search"
            placeholder="Search files, channels, comments"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
      </header>
      {error ? <Notice tone="error">Could not read the history: {error}</Notice> : null}
      {entries === null ? (
        <p class="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <div class="empty">
          <p class="empty__title">{search ? 'No match' : 'No uploads yet'}</p>
          <p class="muted">
            {search
              ? `Nothing in the history matches “${search}”.`
              : 'Finished uploads are listed here.'}
          </p>
        </div>
      ) : (
        <HistoryList
          entries={entries}
          snapshot={props.snapshot}
          onShow={props.onShow}
          onRedirect={props.onRedirect}
        />
      )}
    </section>
  );
}

/** The history matching `search`, read again whenever the history changes (`version`). */
function useHistoryEntries(
  search: string,
  version: number,
): { entries: HistoryEntry[] | null; error: string | null } {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    // A short pause while typing keeps one query per word, not one per key.
    const timer = setTimeout(
      () => {
        api()
          .listHistory({ search: search.trim() || undefined, limit: LIMIT })
          .then(
            (found) => {
              if (!current) return;
              setEntries(found);
              setError(null);
            },
            (e) => current && setError(plainError(e)),
          );
      },
      search === '' ? 0 : 150,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [search, version]);

  return { entries, error };
}

function HistoryList(props: {
  entries: HistoryEntry[];
  snapshot: Snapshot;
  onShow: (view: View) => void;
  onRedirect: (redirect: Redirect) => void;
}) {
  // The workspace's current name: it may have been renamed since, or removed.
  const workspace = (entry: HistoryEntry) =>
    workspaceName(props.snapshot, entry.workspaceId, entry.workspaceName);
  const gone = (entry: HistoryEntry) =>
    !props.snapshot.workspaces.some((w) => w.id === entry.workspaceId);

  return (
    <ul class="items" aria-label="Finished uploads">
      {groupHistory(props.entries).map((group) => {
        const single = group.entries.length === 1;
        const redirect = (entry: HistoryEntry) =>
          props.onRedirect(
            redirectOf(
              { ...entry, id: itemIdOf(entry.id) },
              group.entries.map((e) => ({ ...e, id: itemIdOf(e.id) })),
              'history',
            ),
          );
        const rows = group.entries.map((entry) => (
          <HistoryRow
            key={entry.id}
            entry={entry}
            workspace={workspace(entry)}
            workspaceGone={gone(entry)}
            onShow={props.onShow}
            {...(single ? { onRedirect: redirect } : { inShare: true })}
          />
        ));
        return single ? (
          rows[0]
        ) : (
          <HistoryShareRow
            key={group.id}
            group={group}
            workspace={workspace(group.entries[0]!)}
            workspaceGone={gone(group.entries[0]!)}
            onRedirect={redirect}
          >
            {rows}
          </HistoryShareRow>
        );
      })}
    </ul>
  );
}
