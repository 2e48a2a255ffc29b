// A share's row in the queue, apart from the file row: what it offers acts on the share as a
// whole (send to the others, change destination), not on one of its files.
import type { QueueItem } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestination } from '../channel-names';
import type { ShareGroup } from '../queue-groups';
import { canSendToOthers, refusedByChannel } from '../queue-state';
import { othersOf } from '../redirect';
import { shareTone } from '../share-tone';
import { ActionError } from '../ui/notice';
import { RefusedActions } from '../ui/refused-actions';
import { ShareFiles } from '../ui/share-files';
import { useAction } from '../use-action';

// A share of several files: one row with a summary and overall bar, its files inside. Long
// shares start folded so thirty files do not push everything else off screen.
export function ShareRow(props: {
  group: ShareGroup;
  workspace: string;
  /** Its workspace was removed: nothing can be sent there again, so nothing is offered. */
  workspaceGone: boolean;
  onRedirect: (item: QueueItem) => void;
  children: preact.ComponentChildren;
}) {
  const { items } = props.group;
  const first = items[0]!;
  const delivered = items.filter((i) => i.state === 'delivered').length;
  const size = items.reduce((sum, i) => sum + i.size, 0);
  const sent = items.reduce(
    (sum, i) => sum + (i.state === 'delivered' ? i.size : i.state === 'sending' ? i.sent : 0),
    0,
  );
  const listId = `share-${props.group.id}-files`;
  const destination = useDestination();
  const action = useAction();
  // Refused by some channels only: the whole share can go to the others, or elsewhere.
  const refused = props.workspaceGone ? undefined : items.find(refusedByChannel);
  const saved = { saved: first.labels };
  const title = `${items.length} files → ${destination(first.workspaceId, first.channels, saved)} in ${props.workspace}`;
  return (
    <li class="item share" aria-label={title}>
      <div class="item__head">
        <span class="item__name">{title}</span>
        <span
          class={`badge badge--${props.group.band === 'attention' ? 'failed' : shareTone(items.map((i) => i.state))}`}
        >
          {`${delivered} of ${items.length} delivered`}
        </span>
      </div>
      {props.group.band === 'active' ? (
        <progress
          class="progress"
          max={Math.max(size, 1)}
          value={sent}
          aria-label={`Progress of ${items.length} files`}
        />
      ) : null}
      {first.channels.length > 3 ? (
        // The title says "and 2 more": the whole destination is readable here, folded or not.
        <p class="item__detail">{`To ${destination(first.workspaceId, first.channels, { ...saved, max: Number.POSITIVE_INFINITY })}`}</p>
      ) : null}
      {first.comment ? <p class="item__comment">“{first.comment}”</p> : null}
      {refused ? (
        <>
          <ActionError error={action.error} />
          <div class="item__actions">
            <RefusedActions
              what={`${items.length} files`}
              action={action}
              others={
                canSendToOthers(refused)
                  ? destination(refused.workspaceId, othersOf(refused), saved)
                  : ''
              }
              onSendToOthers={() => api().sendToOthers(refused.id)}
              onChangeDestination={() => props.onRedirect(refused)}
            />
          </div>
        </>
      ) : null}
      <ShareFiles
        id={listId}
        title={title}
        count={items.length}
        firstName={first.name}
        initiallyOpen={items.length <= 4 || props.group.band === 'attention'}
      >
        {props.children}
      </ShareFiles>
    </li>
  );
}
