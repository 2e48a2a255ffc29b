import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { baseName, formatBytes, formatDuration, formatSpeed } from '../format';
import { canRetry, isActive, isFinished, needsToken, retiredProtocol } from '../queue-state';
import { RateMeter } from '../rate';
import { switchToExternalProtocol } from '../switch-protocol';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';
import { useNow } from '../use-now';

const STATE_LABEL: Record<QueueItem['state'], string> = {
  queued: 'Queued',
  waiting: 'Waiting',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
  unknown: 'May have been delivered',
  cancelled: 'Cancelled',
};

export function QueueView(props: {
  snapshot: Snapshot;
  queue: QueueItem[];
  onShow: (view: View) => void;
}) {
  const { snapshot, queue } = props;
  const meter = useRef(new RateMeter());
  const recorded = useRef<QueueItem[] | null>(null);
  // Sample progress once per queue update, during render, so the first frame already has it.
  if (recorded.current !== queue) {
    recorded.current = queue;
    const at = Date.now();
    const sending = new Set<string>();
    for (const item of queue) {
      if (item.state !== 'sending') continue;
      sending.add(item.id);
      meter.current.record(item.id, item.sent, at);
    }
    meter.current.keepOnly(sending);
  }
  const waiting = queue.some((i) => i.state === 'waiting' && i.retryAt !== undefined);
  const now = useNow(waiting);
  const action = useAction();
  const finished = queue.filter(isFinished).length;
  const active = queue.filter(isActive).length;
  const tokenProblems = useMemo(() => {
    const byWorkspace = new Map<string, string>();
    for (const item of queue) {
      if (needsToken(item) && !byWorkspace.has(item.workspaceId)) {
        byWorkspace.set(item.workspaceId, item.error?.message ?? '');
      }
    }
    return [...byWorkspace];
  }, [queue]);
  const workspaceName = (id: string) =>
    snapshot.workspaces.find((w) => w.id === id)?.name ?? 'this workspace';

  return (
    <section class="view" aria-labelledby="queue-title">
      <header class="view__header">
        <h1 id="queue-title" class="view__title" tabIndex={-1}>
          Queue
        </h1>
        <div class="view__tools">
          <button
            type="button"
            class="button"
            disabled={action.busy}
            onClick={() => void action.run(() => api().setPaused(!snapshot.paused))}
          >
            {snapshot.paused ? 'Resume all' : 'Pause all'}
          </button>
          <button
            type="button"
            class="button"
            disabled={finished === 0 || action.busy}
            onClick={() => void action.run(() => api().clearFinished())}
          >
            Clear finished
          </button>
        </div>
      </header>
      <ActionError error={action.error} />
      {snapshot.paused ? (
        <Notice tone="info">
          Uploads are paused. Nothing new is sent until you resume
          {active > 0 ? `; ${active} waiting` : ''}.
        </Notice>
      ) : null}
      {tokenProblems.map(([workspaceId, message]) => (
        <Notice tone="error" key={workspaceId}>
          <strong>{workspaceName(workspaceId)} needs a new token.</strong> The service refused the
          saved one{message ? ` (${message})` : ''}, so uploads there are on hold.{' '}
          <button type="button" class="link" onClick={() => props.onShow('settings')}>
            Open Settings to add a token
          </button>
        </Notice>
      ))}
      {queue.length === 0 ? (
        <div class="empty">
          <p class="empty__title">Nothing in the queue</p>
          <p class="muted">Files you share show up here while they upload.</p>
          <button type="button" class="button" onClick={() => props.onShow('drop')}>
            Share files…
          </button>
        </div>
      ) : (
        <ul class="items" aria-label="Uploads">
          {queue.map((item) => (
            <QueueRow
              key={item.id}
              item={item}
              now={now}
              rate={meter.current.rate(item.id, item.size)}
              workspace={workspaceName(item.workspaceId)}
              onShow={props.onShow}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function QueueRow(props: {
  item: QueueItem;
  now: number;
  rate: ReturnType<RateMeter['rate']>;
  workspace: string;
  onShow: (view: View) => void;
}) {
  const { item } = props;
  const action = useAction();
  const name = item.name || baseName(item.path);
  const titleId = `item-${item.id}-name`;
  const detailId = `item-${item.id}-detail`;
  const state = needsToken(item) ? 'needs-token' : item.state;
  const stateLabel = needsToken(item) ? 'Needs a token' : STATE_LABEL[item.state];
  const permalink = item.file?.permalink;

  useEffect(() => action.clear(), [item.state, action.clear]);

  return (
    <li class={`item item--${state}`} aria-labelledby={titleId} aria-describedby={detailId}>
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
        <ItemDetail item={item} now={props.now} rate={props.rate} workspace={props.workspace} />
      </p>
      {item.state === 'unknown' ? (
        <>
          <p class="item__explain">
            The whole file reached the service, but no answer came back, so Trayshare cannot tell
            whether it was posted. Look in the channel first: sending it again may post it twice.
          </p>
          {item.error?.message ? (
            <details class="item__technical">
              <summary>What happened</summary>
              <p>{item.error.message}</p>
            </details>
          ) : null}
        </>
      ) : null}
      <ActionError error={action.error} />
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
          <button
            type="button"
            class="button button--small"
            onClick={() => props.onShow('settings')}
          >
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
        {canRetry(item) ? (
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
        {permalink ? (
          <>
            <button
              type="button"
              class="button button--small"
              aria-label={`Copy link to ${name}`}
              onClick={() => void action.run(() => api().copyText(permalink))}
            >
              Copy link
            </button>
            <button
              type="button"
              class="button button--small"
              aria-label={`Open ${name} in browser`}
              onClick={() => void action.run(() => api().openExternal(permalink))}
            >
              Open
            </button>
          </>
        ) : null}
      </div>
    </li>
  );
}

function ItemDetail(props: {
  item: QueueItem;
  now: number;
  rate: ReturnType<RateMeter['rate']>;
  workspace: string;
}) {
  const { item, rate } = props;
  const size = formatBytes(item.size);
  const where = `${item.channels.join(', ')} in ${props.workspace}`;
  switch (item.state) {
    case 'queued':
      return <>{`${size} → ${where}. Waiting for a free slot.`}</>;
    case 'sending': {
      const parts = [`${formatBytes(item.sent)} of ${size}`];
      if (rate) {
        parts.push(formatSpeed(rate.bytesPerSecond));
        parts.push(
          Number.isFinite(rate.remainingMs)
            ? `about ${formatDuration(rate.remainingMs)} left`
            : 'stalled',
        );
      }
      return <>{parts.join(' · ')}</>;
    }
    case 'waiting': {
      if (needsToken(item)) return <>{`${size} → ${where}. On hold until a new token is saved.`}</>;
      const reason = item.error?.message ? `${item.error.message} ` : '';
      const when =
        item.retryAt === undefined
          ? 'Waiting to be resumed.'
          : item.retryAt <= props.now
            ? 'Trying again now…'
            : `Trying again in ${formatDuration(item.retryAt - props.now)}.`;
      return <>{`${reason}${when}`}</>;
    }
    case 'delivered':
      return <>{`${size} → ${where}.`}</>;
    case 'failed':
      return <>{item.error?.message ?? 'The upload failed, and no reason was given.'}</>;
    case 'unknown':
      return <>{`${size} → ${where}.`}</>;
    case 'cancelled':
      return <>{`${size} → ${where}. Cancelled before it was delivered.`}</>;
  }
}
