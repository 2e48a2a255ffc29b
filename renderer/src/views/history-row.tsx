// One finished upload in History: where it went, how it ended, and what can still be done with
// it. The row owns its action and its short-lived note, so both show beside this file only.
import { useEffect, useState } from 'preact/hooks';
import type { HistoryEntry, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestination, useDestinationLabels } from '../channel-names';
import { formatBytes, formatTime } from '../format';
import { goneReason, refusedByChannel, retryCanWork } from '../queue-state';
import { othersOf } from '../redirect';
import { ActionError } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';
import { RefusedActions } from '../ui/refused-actions';
import { ServiceWording } from '../ui/service-wording';
import { type Action, useAction } from '../use-action';
import { sendAgain, sendToOthers } from './history-actions';

export const OUTCOME_LABEL: Record<HistoryEntry['outcome'], string> = {
  delivered: 'Delivered',
  failed: 'Failed',
  unknown: 'May have been delivered',
  cancelled: 'Cancelled',
};

/** A note ("Link copied.") that clears itself after a few seconds. */
function useFadingNote(): [string | null, (note: string | null) => void] {
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(null), 4000);
    return () => clearTimeout(timer);
  }, [note]);
  return [note, setNote];
}

export function HistoryRow(props: {
  entry: HistoryEntry;
  /** The workspace's current name: it may have been renamed since. */
  workspace: string;
  /** Its workspace was removed: nothing can be sent there again, so nothing is offered. */
  workspaceGone: boolean;
  onShow: (view: View) => void;
  /** Absent inside a share: its row offers what to do with the refused share as a whole. */
  onRedirect?: (entry: HistoryEntry) => void;
  /** Inside a share, whose row shows its comment once. */
  inShare?: boolean;
}) {
  const { entry } = props;
  const action = useAction();
  const labels = useDestinationLabels();
  const [note, setNote] = useFadingNote();
  const titleId = `history-${entry.id}-name`;

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
        <DestinationList labels={labels(entry.workspaceId, entry.channels, entry.labels)} max={3} />
        {` in ${props.workspace}`}
      </p>
      {entry.stripped ? (
        <p class="item__detail">
          {entry.stripped.length > 0
            ? `Sent without its ${entry.stripped.join(', ')}`
            : 'Sent without photo details (it held none)'}
        </p>
      ) : null}
      {entry.comment && !props.inShare ? <p class="item__comment">“{entry.comment}”</p> : null}
      {entry.error && entry.outcome !== 'delivered' ? (
        <p class={`item__error${entry.outcome === 'unknown' ? ' item__error--unsure' : ''}`}>
          <ServiceWording
            message={props.workspaceGone ? goneReason(entry.error.message) : entry.error.message}
          />
        </p>
      ) : null}
      <ActionError error={action.error} />
      {note ? (
        <p class="item__note" role="status">
          {note}
        </p>
      ) : null}
      <HistoryRowActions
        entry={entry}
        action={action}
        onNote={setNote}
        workspaceGone={props.workspaceGone}
        onRedirect={props.onRedirect}
      />
    </li>
  );
}

function HistoryRowActions(props: {
  entry: HistoryEntry;
  /** The row's action: its error shows above these buttons, in the row. */
  action: Action;
  onNote: (note: string) => void;
  workspaceGone: boolean;
  onRedirect?: ((entry: HistoryEntry) => void) | undefined;
}) {
  const { entry, action } = props;
  const live = !props.workspaceGone;
  const destination = useDestination();
  const link = entry.permalink;
  const retry = async () => {
    const result = await action.run(() => sendAgain(entry));
    if (result) props.onNote(result.note);
  };
  return (
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
              if (done) props.onNote('Link copied.');
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
      {live && props.onRedirect && refusedByChannel(entry) ? (
        <RefusedActions
          what={entry.name}
          others={
            othersOf(entry).length > 0
              ? destination(entry.workspaceId, othersOf(entry), { saved: entry.labels })
              : ''
          }
          action={action}
          onSendToOthers={() => sendToOthers(entry, [entry.path])}
          onChangeDestination={() => props.onRedirect?.(entry)}
        />
      ) : null}
      {live && retryCanWork(entry) ? (
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
  );
}
