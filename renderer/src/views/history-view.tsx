import { useEffect, useState } from 'preact/hooks';
import { isFinishedState } from '../../../main/portable/item-states';
import type { HistoryEntry, Snapshot, View } from '../../../preload/contract';
import { api, plainError } from '../bridge';
import { useDestination, useDestinationLabels } from '../channel-names';
import { formatBytes, formatTime } from '../format';
import { groupHistory, type HistoryGroup } from '../history-groups';
import { refusedByChannel } from '../queue-state';
import { itemIdOf, othersOf, type Redirect, redirectOf } from '../redirect';
import { ActionError, Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';
import { RefusedActions } from '../ui/refused-actions';
import { ServiceWording } from '../ui/service-wording';
import { ShareFiles } from '../ui/share-files';
import { useAction } from '../use-action';

const OUTCOME_LABEL: Record<HistoryEntry['outcome'], string> = {
  delivered: 'Delivered',
  failed: 'Failed',
  unknown: 'May have been delivered',
  cancelled: 'Cancelled',
};

const LIMIT = 200;

export function HistoryView(props: {
  snapshot: Snapshot;
  version: number;
  onShow: (view: View) => void;
  onRedirect: (redirect: Redirect) => void;
}) {
  const [search, setSearch] = useState('');
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
  }, [search, props.version]);

  // The workspace's current name: it may have been renamed since.
  const workspaceName = (entry: HistoryEntry) =>
    props.snapshot.workspaces.find((w) => w.id === entry.workspaceId)?.name ?? entry.workspaceName;

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
        <ul class="items" aria-label="Finished uploads">
          {groupHistory(entries).map((group) => {
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
                workspace={workspaceName(entry)}
                onShow={props.onShow}
                {...(single ? { onRedirect: redirect } : {})}
              />
            ));
            return single ? (
              rows[0]
            ) : (
              <HistoryShareRow
                key={group.id}
                group={group}
                workspace={workspaceName(group.entries[0]!)}
                onRedirect={redirect}
              >
                {rows}
              </HistoryShareRow>
            );
          })}
        </ul>
      )}
    </section>
  );
}

// The files of one share: one row with one outcome when they all agree, its files inside. Long
// shares start folded unless some file did not arrive.
function HistoryShareRow(props: {
  group: HistoryGroup;
  workspace: string;
  onRedirect: (entry: HistoryEntry) => void;
  children: preact.ComponentChildren;
}) {
  const { entries, outcome } = props.group;
  const allDelivered = outcome === 'delivered';
  const first = entries[0]!;
  const delivered = entries.filter((e) => e.outcome === 'delivered').length;
  const size = entries.reduce((sum, e) => sum + e.size, 0);
  const comment = entries.find((e) => e.comment)?.comment;
  const listId = `history-share-${props.group.id}-files`;
  const destination = useDestination();
  const action = useAction();
  const refused = entries.find(refusedByChannel);
  const others = refused ? othersOf(refused) : [];
  const title = `${entries.length} files → ${destination(first.workspaceId, first.channels)} in ${props.workspace}`;
  return (
    <li class={`item share item--${outcome ?? 'failed'}`} aria-label={title}>
      <div class="item__head">
        <span class="item__name">{title}</span>
        <span class={`badge badge--${outcome ?? 'failed'}`}>
          {outcome ? OUTCOME_LABEL[outcome] : `${delivered} of ${entries.length} delivered`}
        </span>
      </div>
      <p class="item__detail">{`${formatTime(first.at)} · ${formatBytes(size)}`}</p>
      {first.channels.length > 3 ? (
        // The title says "and 2 more": the whole destination is readable here, folded or not.
        <p class="item__detail">{`To ${destination(first.workspaceId, first.channels, Number.POSITIVE_INFINITY)}`}</p>
      ) : null}
      {comment ? <p class="item__comment">“{comment}”</p> : null}
      {refused ? (
        <>
          <ActionError error={action.error} />
          <div class="item__actions">
            <RefusedActions
              what={`${entries.length} files`}
              others={others.length > 0 ? destination(refused.workspaceId, others) : ''}
              action={action}
              onSendToOthers={() =>
                sendToOthers(
                  refused,
                  entries.filter((e) => refusedByChannel(e)).map((e) => e.path),
                )
              }
              onChangeDestination={() => props.onRedirect(refused)}
            />
          </div>
        </>
      ) : null}
      <ShareFiles
        id={listId}
        title={title}
        count={entries.length}
        initiallyOpen={entries.length <= 4 || !allDelivered}
      >
        {props.children}
      </ShareFiles>
    </li>
  );
}

/**
 * "Send to the others" from History: the same queue item while it is still there (one history
 * row, never posted twice); once cleared from the queue, the files as a new share to the others.
 */
async function sendToOthers(entry: HistoryEntry, paths: string[]): Promise<void> {
  const itemId = itemIdOf(entry.id);
  const queued = (await api().listQueue()).find((i) => i.id === itemId);
  if (queued?.state === 'failed') return api().sendToOthers(itemId);
  if (queued) throw new Error('This upload was sent again meanwhile; see the queue.');
  const shared = await api().share({
    target: { workspaceId: entry.workspaceId, channels: othersOf(entry) },
    comment: entry.comment === '' ? undefined : entry.comment,
    paths,
  });
  const refused = shared.refused[0];
  if (refused) throw new Error(`Not queued: ${refused.reason}`);
}

function HistoryRow(props: {
  entry: HistoryEntry;
  /** The workspace's current name: it may have been renamed since. */
  workspace: string;
  onShow: (view: View) => void;
  /** Absent inside a share: its row offers what to do with the refused share as a whole. */
  onRedirect?: (entry: HistoryEntry) => void;
}) {
  const { entry } = props;
  const action = useAction();
  const labels = useDestinationLabels();
  const destination = useDestination();
  const [note, setNote] = useState<string | null>(null);
  const titleId = `history-${entry.id}-name`;
  const link = entry.permalink;
  const retryable = entry.outcome !== 'delivered';

  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(null), 4000);
    return () => clearTimeout(timer);
  }, [note]);

  const retry = async () => {
    const result = await action.run(async () => {
      // Still in the queue: retried as the same item, so its one history row is updated.
      const itemId = entry.id.replace(/\.\d+$/, '');
      const queued = (await api().listQueue()).find((i) => i.id === itemId);
      if (queued && isFinishedState(queued.state)) {
        await api().retryItem(itemId);
        return { note: 'Queued again.' };
      }
      if (queued) return { note: 'Already in the queue.' };
      // Cleared from the queue: sent again as a new upload.
      const shared = await api().share({
        target: { workspaceId: entry.workspaceId, channels: entry.channels },
        comment: entry.comment === '' ? undefined : entry.comment,
        paths: [entry.path],
      });
      const refused = shared.refused[0];
      return { note: refused ? `Not queued: ${refused.reason}` : 'Queued again.' };
    });
    if (result) setNote(result.note);
  };

  return (
    <li
      class={`item item--${entry.outcome}`}
      aria-labelledby={titleId}
      data-focus-key={`history-${entry.id}`}
    >
      <div class="item__head">
        <span class="item__name" id={titleId}>
          {entry.name}
        </span>
        <span class={`badge badge--${entry.outcome}`}>{OUTCOME_LABEL[entry.outcome]}</span>
      </div>
      <p class="item__detail">
        {`${formatTime(entry.at)} · ${formatBytes(entry.size)} → `}
        <DestinationList labels={labels(entry.workspaceId, entry.channels)} max={3} />
        {` in ${props.workspace}`}
      </p>
      {entry.comment ? <p class="item__comment">“{entry.comment}”</p> : null}
      {entry.error && entry.outcome !== 'delivered' ? (
        <p class={`item__error${entry.outcome === 'unknown' ? ' item__error--unsure' : ''}`}>
          <ServiceWording message={entry.error.message} />
        </p>
      ) : null}
      <ActionError error={action.error} />
      {note ? (
        <p class="item__note" role="status">
          {note}
        </p>
      ) : null}
      <div class="item__actions">
        {link ? (
          <>
            <button
              type="button"
              class="button button--small"
              aria-label={`Copy link to ${entry.name}`}
              onClick={async () => {
                const done = await action.run(async () => {
                  await api().copyText(link);
                  return true;
                });
                if (done) setNote('Link copied.');
              }}
            >
              Copy link
            </button>
            <button
              type="button"
              class="button button--small"
              aria-label={`Open in browser: ${entry.name}`}
              onClick={() => void action.run(() => api().openExternal(link))}
            >
              Open in browser
            </button>
          </>
        ) : null}
        {props.onRedirect && refusedByChannel(entry) ? (
          <RefusedActions
            what={entry.name}
            others={
              othersOf(entry).length > 0 ? destination(entry.workspaceId, othersOf(entry)) : ''
            }
            action={action}
            onSendToOthers={() => sendToOthers(entry, [entry.path])}
            onChangeDestination={() => props.onRedirect?.(entry)}
          />
        ) : null}
        {retryable ? (
          <button
            type="button"
            class="button button--small"
            aria-label={`${entry.outcome === 'unknown' ? 'Send again' : 'Retry'} ${entry.name}`}
            disabled={action.busy}
            onClick={() => void retry()}
          >
            {entry.outcome === 'unknown' ? 'Send again' : 'Retry'}
          </button>
        ) : null}
      </div>
    </li>
  );
}
