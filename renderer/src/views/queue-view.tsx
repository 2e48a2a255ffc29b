import { useMemo } from 'preact/hooks';
import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { formatBytes } from '../format';
import { groupShares, overallProgress } from '../queue-groups';
import { isActive, isFinished } from '../queue-state';
import { type Redirect, redirectOf } from '../redirect';
import { ActionError, Notice } from '../ui/notice';
import { type Action, useAction } from '../use-action';
import { useCountdownNow } from '../use-now';
import { workspaceName } from '../workspace-name';
import {
  queuedWhy,
  retryableFailures,
  useLimitedUntil,
  useRateSamples,
  useTokenProblems,
} from './queue-facts';
import type { QueuedWhy } from './queue-item-detail';
import { QueueRow } from './queue-row';
import { ShareRow } from './queue-share-row';

export function QueueView(props: {
  snapshot: Snapshot;
  queue: QueueItem[];
  /** The share the sheet just sent, listed first (groupShares). */
  justShared?: string | null;
  onShow: (view: View) => void;
  onRedirect: (redirect: Redirect) => void;
}) {
  const { snapshot, queue, justShared } = props;
  const meter = useRateSamples(queue, snapshot.paused);
  const limitedUntil = useLimitedUntil(queue);
  // Every countdown the rows show: a retry's, and a rate-limit pause that outlived its file.
  const deadlines = [
    ...queue.flatMap((i) => (i.state === 'waiting' && i.retryAt !== undefined ? [i.retryAt] : [])),
    ...limitedUntil.values(),
  ];
  // Ticks while a countdown runs or anything moves, so speed and time left are measured over
  // time, not per event.
  const now = useCountdownNow(
    deadlines,
    queue.some((i) => i.state === 'sending'),
  );
  const rateAt = Math.max(now, Date.now());
  const action = useAction();
  const finished = queue.filter(isFinished).length;
  const active = queue.filter(isActive);
  const sending = active.filter((i) => i.state === 'sending').length;
  const failed = retryableFailures(queue, snapshot);
  const groups = useMemo(() => groupShares(queue, justShared), [queue, justShared]);
  const tokenProblems = useTokenProblems(queue);
  const workspace = (id: string, saved?: string) => workspaceName(snapshot, id, saved);
  const gone = (id: string) => !snapshot.workspaces.some((w) => w.id === id);
  const why = (item: QueueItem): QueuedWhy =>
    queuedWhy(item.workspaceId, snapshot.paused, limitedUntil, rateAt);
  const redirect = (item: QueueItem) => props.onRedirect(redirectOf(item, queue, 'queue'));
  // A share of one file is a plain row that offers the refused actions itself.
  const row = (key: string, item: QueueItem, inShare: boolean) => (
    <QueueRow
      key={key}
      item={item}
      now={rateAt}
      rate={meter.rate(item.id, item.size, rateAt)}
      workspace={workspace(item.workspaceId, item.workspaceName)}
      workspaceGone={gone(item.workspaceId)}
      queuedWhy={why(item)}
      onShow={props.onShow}
      {...(inShare ? {} : { onRedirect: redirect })}
    />
  );

  return (
    <section class="view" aria-labelledby="queue-title">
      <QueueHeader paused={snapshot.paused} finished={finished} action={action} />
      <ActionError error={action.error} />
      <BatchBar queue={queue} active={active} failed={failed} action={action} />
      {snapshot.paused ? (
        <Notice tone="info">
          <PausedText sending={sending} waiting={active.length - sending} />
        </Notice>
      ) : null}
      <TokenNotices problems={tokenProblems} workspaceName={workspace} onShow={props.onShow} />
      {queue.length === 0 ? (
        <EmptyQueue onShow={props.onShow} />
      ) : (
        <ul class="items" aria-label="Uploads">
          {groups.map((group) =>
            group.items.length === 1 ? (
              row(group.id, group.items[0]!, false)
            ) : (
              <ShareRow
                key={group.id}
                group={group}
                workspace={workspace(group.items[0]!.workspaceId, group.items[0]!.workspaceName)}
                workspaceGone={gone(group.items[0]!.workspaceId)}
                onRedirect={redirect}
              >
                {group.items.map((item) => row(item.id, item, true))}
              </ShareRow>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

/** One banner per workspace whose uploads wait for a token, with the way to add one. */
function TokenNotices(props: {
  problems: [string, string][];
  workspaceName: (id: string) => string;
  onShow: (view: View) => void;
}) {
  return (
    <>
      {props.problems.map(([workspaceId, message]) => (
        <Notice tone="error" key={workspaceId}>
          <strong>{props.workspaceName(workspaceId)} needs a new token.</strong>
          {message ? ` ${message}` : ''} Its uploads wait until one is saved.{' '}
          <button type="button" class="link" onClick={() => props.onShow('settings')}>
            Open Settings to add a token
          </button>
        </Notice>
      ))}
    </>
  );
}

function QueueHeader(props: { paused: boolean; finished: number; action: Action }) {
  const { action } = props;
  return (
    <header class="view__header">
      <h1 id="queue-title" class="view__title" tabIndex={-1}>
        Queue
      </h1>
      <div class="view__tools">
        <button
          type="button"
          class="button"
          disabled={action.busy}
          onClick={() => void action.run(() => api().setPaused(!props.paused))}
        >
          {props.paused ? 'Resume all' : 'Pause all'}
        </button>
        <button
          type="button"
          class="button"
          disabled={props.finished === 0 || action.busy}
          onClick={() => void action.run(() => api().clearFinished())}
        >
          Clear finished
        </button>
      </div>
    </header>
  );
}

/** Progress and actions over every upload at once; absent when nothing is left to act on. */
function BatchBar(props: {
  queue: QueueItem[];
  active: QueueItem[];
  failed: QueueItem[];
  /** The view's action: its error shows under the header with Pause's and Clear's. */
  action: Action;
}) {
  const { active, failed, action } = props;
  const overall = overallProgress(props.queue);
  if (overall.files === 0 && failed.length === 0) return null;
  return (
    <section class="batch" aria-label="All uploads">
      {overall.files > 0 ? (
        <div class="batch__progress">
          <p class="batch__text">
            {`${overall.delivered} of ${overall.files === 1 ? '1 file' : `${overall.files} files`} delivered · ${formatBytes(overall.sent)} of ${formatBytes(overall.size)}`}
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
  );
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

function EmptyQueue(props: { onShow: (view: View) => void }) {
  return (
    <div class="empty">
      <p class="empty__title">Nothing in the queue</p>
      <p class="muted">Files you share show up here while they upload.</p>
      <button type="button" class="button" onClick={() => props.onShow('drop')}>
        Share files…
      </button>
    </div>
  );
}
