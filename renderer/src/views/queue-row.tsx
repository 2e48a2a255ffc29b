// One file in the queue: its state, progress and the buttons that act on it. The row owns one
// action, so a failed Cancel or Retry shows its error beside this file and nowhere else.
import { useEffect } from 'preact/hooks';
import type { QueueItem, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestination } from '../channel-names';
import { baseName } from '../format';
import {
  canRetry,
  canSendToOthers,
  isActive,
  isHeld,
  needsToken,
  refusedByChannel,
  retiredProtocol,
  workspaceLost,
} from '../queue-state';
import { othersOf } from '../redirect';
import { switchToExternalProtocol } from '../switch-protocol';
import { ActionError } from '../ui/notice';
import { RefusedActions } from '../ui/refused-actions';
import { type Action, useAction } from '../use-action';
import { ItemDetail, type ItemFacts } from './queue-item-detail';

const STATE_LABEL: Record<QueueItem['state'], string> = {
  queued: 'Queued',
  waiting: 'Waiting',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
  unknown: 'May have been delivered',
  cancelled: 'Cancelled',
};

export function QueueRow(
  props: ItemFacts & {
    onShow: (view: View) => void;
    /** Absent inside a share: its row offers what to do with the refused share as a whole. */
    onRedirect?: (item: QueueItem) => void;
  },
) {
  const { item } = props;
  const action = useAction();
  const name = item.name || baseName(item.path);
  const titleId = `item-${item.id}-name`;
  const detailId = `item-${item.id}-detail`;
  const state = isHeld(item) ? 'needs-token' : item.state;
  const stateLabel = workspaceLost(item)
    ? 'Workspace lost'
    : needsToken(item)
      ? 'Needs a token'
      : STATE_LABEL[item.state];

  useEffect(() => action.clear(), [item.state, action.clear]);

  return (
    <li
      class={`item item--${state}`}
      aria-labelledby={titleId}
      aria-describedby={detailId}
      data-focus-key={`item-${item.id}`}
    >
      <div class="item__head">
        <span class="item__name" id={titleId}>
          {name}
        </span>
        <span class={`badge badge--${state}`}>{stateLabel}</span>
      </div>
      {item.state === 'sending' ? (
        <progress
          class="progress"
          max={Math.max(item.size, 1)}
          value={item.sent}
          aria-label={`Progress of ${name}`}
        />
      ) : null}
      <p class="item__detail" id={detailId}>
        <ItemDetail
          item={item}
          now={props.now}
          rate={props.rate}
          workspace={props.workspace}
          workspaceGone={props.workspaceGone}
          queuedWhy={props.queuedWhy}
        />
      </p>
      {item.state === 'unknown' ? <UnknownOutcome message={item.error?.message} /> : null}
      <ActionError error={action.error} />
      <QueueRowActions
        item={item}
        name={name}
        action={action}
        workspace={props.workspace}
        workspaceGone={props.workspaceGone}
        onShow={props.onShow}
        onRedirect={props.onRedirect}
      />
    </li>
  );
}

/** A file that reached the service with no answer back: why sending it again needs a look first. */
function UnknownOutcome(props: { message: string | undefined }) {
  return (
    <>
      <p class="item__explain">
        The whole file reached the service, but no answer came back, so Trayshare cannot tell
        whether it was posted. Look in the channel first: sending it again may post it twice.
      </p>
      {props.message ? (
        <details class="item__technical">
          <summary>What happened</summary>
          <p>{props.message}</p>
        </details>
      ) : null}
    </>
  );
}

function QueueRowActions(props: {
  item: QueueItem;
  name: string;
  /** The row's action: its error shows above these buttons, in the row. */
  action: Action;
  workspace: string;
  workspaceGone: boolean;
  onShow: (view: View) => void;
  onRedirect?: (item: QueueItem) => void;
}) {
  const { item, name, action } = props;
  const permalink = item.file?.permalink;
  const destination = useDestination();
  return (
    <div class="item__actions">
      {isActive(item) ? (
        <button
          type="button"
          class="button button--small"
          aria-label={`Cancel ${name}`}
          disabled={action.busy}
          onClick={() => void action.run(() => api().cancelItem(item.id))}
        >
          Cancel
        </button>
      ) : null}
      {needsToken(item) ? (
        <button type="button" class="button button--small" onClick={() => props.onShow('settings')}>
          Add token…
        </button>
      ) : null}
      {retiredProtocol(item) ? (
        <button
          type="button"
          class="button button--small button--primary"
          disabled={action.busy}
          onClick={() => void action.run(() => switchToExternalProtocol(item.workspaceId))}
        >
          Switch {props.workspace} to Slack's upload protocol
        </button>
      ) : null}
      {props.onRedirect && refusedByChannel(item) && !props.workspaceGone ? (
        <RefusedActions
          what={name}
          others={
            canSendToOthers(item)
              ? destination(item.workspaceId, othersOf(item), { saved: item.labels })
              : ''
          }
          action={action}
          onSendToOthers={() => api().sendToOthers(item.id)}
          onChangeDestination={() => props.onRedirect?.(item)}
        />
      ) : null}
      {canRetry(item) && !props.workspaceGone ? (
        <button
          type="button"
          class="button button--small"
          aria-label={`${item.state === 'unknown' ? 'Send again' : 'Retry'} ${name}`}
          disabled={action.busy}
          onClick={() => void action.run(() => api().retryItem(item.id))}
        >
          {item.state === 'unknown' ? 'Send again' : 'Retry'}
        </button>
      ) : null}
      {permalink ? <LinkButtons link={permalink} name={name} action={action} /> : null}
    </div>
  );
}

/** A delivered file's link: copied or opened, failures shown in the row like any other. */
function LinkButtons(props: { link: string; name: string; action: Action }) {
  const { link, name, action } = props;
  return (
    <>
      <button
        type="button"
        class="button button--small"
        aria-label={`Copy link to ${name}`}
        onClick={() => void action.run(() => api().copyText(link))}
      >
        Copy link
      </button>
      <button
        type="button"
        class="button button--small"
        aria-label={`Open in browser: ${name}`}
        onClick={() => void action.run(() => api().openExternal(link))}
      >
        Open in browser
      </button>
    </>
  );
}
