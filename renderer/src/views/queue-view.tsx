import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestination, useDestinationLabels } from '../channel-names';
import { baseName, formatBytes, formatDuration, formatSpeed } from '../format';
import { groupShares, overallProgress, type ShareGroup } from '../queue-groups';
import {
  canRetry,
  canSendToOthers,
  isActive,
  isFinished,
  isHeld,
  needsToken,
  refusedByChannel,
  retiredProtocol,
  workspaceLost,
} from '../queue-state';
import { RateMeter } from '../rate';
import { othersOf, type Redirect, redirectOf } from '../redirect';
import { switchToExternalProtocol } from '../switch-protocol';
import { ActionError, Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';
import { RefusedActions } from '../ui/refused-actions';
import { ServiceWording } from '../ui/service-wording';
import { ShareFiles } from '../ui/share-files';
import { useAction } from '../use-action';
import { useNow } from '../use-now';

/** Why a queued file has not started: the pause, the service's rate limit, or other uploads. */
type QueuedWhy = { kind: 'paused' } | { kind: 'rate-limit'; until: number } | { kind: 'slot' };

const isRateLimit = (item: QueueItem): boolean =>
  item.error?.code === 'ratelimited' || item.error?.code === 'http_429';

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
  onRedirect: (redirect: Redirect) => void;
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
  // Pause and resume start the speed over: bytes from before the pause would inflate it.
  const pausedBefore = useRef(snapshot.paused);
  if (pausedBefore.current !== snapshot.paused) {
    pausedBefore.current = snapshot.paused;
    meter.current.reset();
  }
  const waiting = queue.some((i) => i.state === 'waiting' && i.retryAt !== undefined);
  // Ticks while anything moves, so speed and time left are measured over time, not per event.
  const now = useNow(waiting || queue.some((i) => i.state === 'sending'));
  const rateAt = Math.max(now, Date.now());
  const action = useAction();
  const finished = queue.filter(isFinished).length;
  const active = queue.filter(isActive);
  const sending = active.filter((i) => i.state === 'sending').length;
  const failed = queue.filter(
    (i) =>
      i.state === 'failed' &&
      !isHeld(i) &&
      !retiredProtocol(i) &&
      snapshot.workspaces.some((w) => w.id === i.workspaceId),
  );
  const overall = overallProgress(queue);
  const groups = useMemo(() => groupShares(queue), [queue]);
  const tokenProblems = useMemo(() => {
    const byWorkspace = new Map<string, string>();
    for (const item of queue) {
      if (needsToken(item) && !byWorkspace.has(item.workspaceId)) {
        byWorkspace.set(item.workspaceId, holdReason(item));
      }
    }
    return [...byWorkspace];
  }, [queue]);
  const workspaceName = (id: string) =>
    snapshot.workspaces.find((w) => w.id === id)?.name ?? 'a removed workspace';
  const gone = (item: QueueItem) => !snapshot.workspaces.some((w) => w.id === item.workspaceId);
  // Until when each workspace waits out the service's rate limit: a file queued meanwhile says
  // so, with the time left, rather than "waiting for a free slot" while nothing is sending.
  const limitedUntil = useMemo(() => {
    const until = new Map<string, number>();
    for (const i of queue) {
      if (i.state !== 'waiting' || i.retryAt === undefined || !isRateLimit(i)) continue;
      until.set(i.workspaceId, Math.max(until.get(i.workspaceId) ?? 0, i.retryAt));
    }
    return until;
  }, [queue]);
  const why = (item: QueueItem): QueuedWhy =>
    snapshot.paused
      ? { kind: 'paused' }
      : (limitedUntil.get(item.workspaceId) ?? 0) > rateAt
        ? { kind: 'rate-limit', until: limitedUntil.get(item.workspaceId)! }
        : { kind: 'slot' };

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
      {overall.files > 0 || failed.length > 0 ? (
        <section class="batch" aria-label="All uploads">
          {overall.files > 0 ? (
            <div class="batch__progress">
              <p class="batch__text">
                {`${overall.files === 1 ? '1 file' : `${overall.files} files`} to go · ${formatBytes(overall.sent)} of ${formatBytes(overall.size)}`}
              </p>
              <progress
                class="progress"
                max={Math.max(overall.size, 1)}
                value={overall.sent}
                aria-label="Overall progress"
              />
            </div>
          ) : null}
          <div class="batch__actions">
            {active.length > 0 ? (
              <button
                type="button"
                class="button button--small"
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    for (const item of active) await api().cancelItem(item.id);
                  })
                }
              >
                Cancel all
              </button>
            ) : null}
            {failed.length > 0 ? (
              <button
                type="button"
                class="button button--small"
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    for (const item of failed) await api().retryItem(item.id);
                  })
                }
              >
                Retry all failed ({failed.length})
              </button>
            ) : null}
          </div>
        </section>
      ) : null}
      {snapshot.paused ? (
        <Notice tone="info">
          <PausedText sending={sending} waiting={active.length - sending} />
        </Notice>
      ) : null}
      {tokenProblems.map(([workspaceId, message]) => (
        <Notice tone="error" key={workspaceId}>
          <strong>{workspaceName(workspaceId)} needs a new token.</strong>
          {message ? ` ${message}` : ''} Its uploads wait until one is saved.{' '}
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
          {groups.map((group) =>
            group.items.length === 1 ? (
              <QueueRow
                key={group.id}
                item={group.items[0]!}
                now={rateAt}
                rate={meter.current.rate(group.items[0]!.id, group.items[0]!.size, rateAt)}
                workspace={workspaceName(group.items[0]!.workspaceId)}
                workspaceGone={gone(group.items[0]!)}
                queuedWhy={why(group.items[0]!)}
                onShow={props.onShow}
                onRedirect={(item) => props.onRedirect(redirectOf(item, queue, 'queue'))}
              />
            ) : (
              <ShareRow
                key={group.id}
                group={group}
                workspace={workspaceName(group.items[0]!.workspaceId)}
                onRedirect={(item) => props.onRedirect(redirectOf(item, queue, 'queue'))}
              >
                {group.items.map((item) => (
                  <QueueRow
                    key={item.id}
                    item={item}
                    now={rateAt}
                    rate={meter.current.rate(item.id, item.size, rateAt)}
                    workspace={workspaceName(item.workspaceId)}
                    workspaceGone={gone(item)}
                    queuedWhy={why(item)}
                    onShow={props.onShow}
                    inShare
                  />
                ))}
              </ShareRow>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

/**
 * Why a workspace's uploads are on hold, without the "paste a new token in Settings" the
 * banner already says with its button: the banner says each thing once.
 */
function holdReason(item: QueueItem): string {
  if (item.error?.code === 'no_token') return 'No token is saved for it.';
  return (item.error?.message ?? '')
    .replace(/\s*Paste a new token for this workspace in Settings\.\s*$/, '')
    .trim();
}

function PausedText(props: { sending: number; waiting: number }) {
  const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);
  const parts = ['Uploads are paused.'];
  // The queue lets uploads already on the wire finish; pausing only holds the ones not started.
  if (props.sending > 0)
    parts.push(
      `${files(props.sending)} already sending ${props.sending === 1 ? 'finishes' : 'finish'}; cancel ${props.sending === 1 ? 'it' : 'them'} to stop now.`,
    );
  parts.push(
    props.waiting > 0
      ? `${files(props.waiting)} waiting ${props.waiting === 1 ? 'starts' : 'start'} when you resume.`
      : 'Nothing new is sent until you resume.',
  );
  return <>{parts.join(' ')}</>;
}

// A share of several files: one row with a summary and overall bar, its files inside. Long
// shares start folded so thirty files do not push everything else off screen.
function ShareRow(props: {
  group: ShareGroup;
  workspace: string;
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
  const refused = items.find(refusedByChannel);
  const title = `${items.length} files → ${destination(first.workspaceId, first.channels)} in ${props.workspace}`;
  return (
    <li class="item share" aria-label={title}>
      <div class="item__head">
        <span class="item__name">{title}</span>
        <span
          class={`badge badge--${props.group.band === 'active' ? 'sending' : props.group.band === 'attention' ? 'failed' : 'delivered'}`}
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
        <p class="item__detail">{`To ${destination(first.workspaceId, first.channels, Number.POSITIVE_INFINITY)}`}</p>
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
                canSendToOthers(refused) ? destination(refused.workspaceId, othersOf(refused)) : ''
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
        initiallyOpen={items.length <= 4 || props.group.band === 'attention'}
      >
        {props.children}
      </ShareFiles>
    </li>
  );
}

function QueueRow(props: {
  item: QueueItem;
  now: number;
  rate: ReturnType<RateMeter['rate']>;
  workspace: string;
  /** Its workspace was removed: nothing can be sent there again. */
  workspaceGone: boolean;
  queuedWhy: QueuedWhy;
  onShow: (view: View) => void;
  /** Absent inside a share: its row offers what to do with the refused share as a whole. */
  onRedirect?: (item: QueueItem) => void;
  inShare?: boolean;
}) {
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
  const permalink = item.file?.permalink;
  const destination = useDestination();

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
        {props.onRedirect && refusedByChannel(item) && !props.workspaceGone ? (
          <RefusedActions
            what={name}
            others={canSendToOthers(item) ? destination(item.workspaceId, othersOf(item)) : ''}
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
              aria-label={`Open in browser: ${name}`}
              onClick={() => void action.run(() => api().openExternal(permalink))}
            >
              Open in browser
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
  workspaceGone: boolean;
  queuedWhy: QueuedWhy;
}) {
  const { item, rate } = props;
  const size = formatBytes(item.size);
  const labels = useDestinationLabels()(item.workspaceId, item.channels);
  const where = (
    <>
      <DestinationList labels={labels} max={3} />
      {` in ${props.workspace}`}
    </>
  );
  switch (item.state) {
    case 'queued': {
      const why = props.queuedWhy;
      const wait =
        why.kind === 'paused'
          ? 'Paused: it starts when you resume.'
          : why.kind === 'rate-limit'
            ? `The service asked to slow down: it starts in ${formatDuration(why.until - props.now)}.`
            : 'Waiting for a free slot.';
      return (
        <>
          {`${size} → `}
          {where}
          {`. ${wait}`}
        </>
      );
    }
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
      if (needsToken(item))
        return (
          <>
            {`${size} → `}
            {where}
            {`. On hold until a new token is saved.`}
          </>
        );
      // Not a token problem: its message names the settings copy to put back.
      if (workspaceLost(item)) return <>{`${size}. ${item.error?.message ?? ''}`}</>;
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
      return (
        <>
          {`${size} → `}
          {where}
          {`.`}
        </>
      );
    case 'failed':
      // Size and destination stay: which upload failed matters as much as why.
      return (
        <>
          {`${size} → `}
          {where}
          {'. '}
          <ServiceWording
            message={item.error?.message ?? 'The upload failed, and no reason was given.'}
          />
        </>
      );
    case 'unknown':
      return (
        <>
          {`${size} → `}
          {where}
          {`.`}
        </>
      );
    case 'cancelled':
      return (
        <>
          {`${size} → `}
          {where}
          {`. ${props.workspaceGone ? 'Cancelled: its workspace was removed.' : 'Cancelled before it was delivered.'}`}
        </>
      );
  }
}
