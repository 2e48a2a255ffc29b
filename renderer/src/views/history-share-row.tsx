// A share's row in History, apart from the file row: its outcome and what it offers (send to
// the others, change destination) are the share's as a whole, not one file's.
import type { HistoryEntry } from '../../../preload/contract';
import { useDestination } from '../channel-names';
import { formatBytes, formatTime } from '../format';
import type { HistoryGroup } from '../history-groups';
import { refusedByChannel } from '../queue-state';
import { othersOf } from '../redirect';
import { shareTone } from '../share-tone';
import { ActionError } from '../ui/notice';
import { RefusedActions } from '../ui/refused-actions';
import { ShareFiles } from '../ui/share-files';
import { useAction } from '../use-action';
import { sendToOthers } from './history-actions';
import { OUTCOME_LABEL } from './history-row';

// The files of one share: one row with one outcome when they all agree, its files inside. Long
// shares start folded unless some file did not arrive.
export function HistoryShareRow(props: {
  group: HistoryGroup;
  workspace: string;
  /** Its workspace was removed: nothing can be sent there again, so nothing is offered. */
  workspaceGone: boolean;
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
  const tone = shareTone(entries.map((e) => e.outcome));
  const refused = props.workspaceGone ? undefined : entries.find(refusedByChannel);
  const others = refused ? othersOf(refused) : [];
  const saved = { saved: first.labels };
  const title = `${entries.length} files → ${destination(first.workspaceId, first.channels, saved)} in ${props.workspace}`;
  return (
    <li class={`item share item--${tone}`} aria-label={title}>
      <div class="item__head">
        <span class="item__name">{title}</span>
        <span class={`badge badge--${tone}`}>
          {outcome ? OUTCOME_LABEL[outcome] : `${delivered} of ${entries.length} delivered`}
        </span>
      </div>
      <p class="item__detail">{`${formatTime(first.at)} · ${formatBytes(size)}`}</p>
      {first.channels.length > 3 ? (
        // The title says "and 2 more": the whole destination is readable here, folded or not.
        <p class="item__detail">{`To ${destination(first.workspaceId, first.channels, { ...saved, max: Number.POSITIVE_INFINITY })}`}</p>
      ) : null}
      {comment ? <p class="item__comment">“{comment}”</p> : null}
      {refused ? (
        <>
          <ActionError error={action.error} />
          <div class="item__actions">
            <RefusedActions
              what={`${entries.length} files`}
              others={others.length > 0 ? destination(refused.workspaceId, others, saved) : ''}
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
        firstName={first.name}
        initiallyOpen={entries.length <= 4 || !allDelivered}
      >
        {props.children}
      </ShareFiles>
    </li>
  );
}
