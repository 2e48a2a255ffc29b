// The one line under a queued file that says where it goes and what it waits for: kept apart from
// the row so each state's wording can be read (and changed) in one place.
import type { QueueItem } from '../../../preload/contract';
import { useDestinationLabels } from '../channel-names';
import { formatBytes, formatDuration, formatSpeed } from '../format';
import { goneReason, needsToken, workspaceLost } from '../queue-state';
import type { Rate } from '../rate';
import { DestinationList } from '../ui/person-icon';
import { ServiceWording } from '../ui/service-wording';

/** Why a queued file has not started: the pause, the service's rate limit, or other uploads. */
export type QueuedWhy =
  | { kind: 'paused' }
  | { kind: 'rate-limit'; until: number }
  | { kind: 'slot' };

function queuedWait(why: QueuedWhy, now: number): string {
  return why.kind === 'paused'
    ? 'Paused: it starts when you resume.'
    : why.kind === 'rate-limit'
      ? `The service asked to slow down: it starts in ${formatDuration(why.until - now)}.`
      : 'Waiting for a free slot.';
}

function sendingText(item: QueueItem, rate: Rate | undefined): string {
  const parts = [`${formatBytes(item.sent)} of ${formatBytes(item.size)}`];
  if (rate) {
    parts.push(formatSpeed(rate.bytesPerSecond));
    parts.push(
      Number.isFinite(rate.remainingMs)
        ? `about ${formatDuration(rate.remainingMs)} left`
        : 'stalled',
    );
  }
  return parts.join(' · ');
}

/** A waiting file that is not held for a token nor lost with its workspace: why, and when next. */
function retryText(item: QueueItem, now: number): string {
  const reason = item.error?.message ? `${item.error.message} ` : '';
  const when =
    item.retryAt === undefined
      ? 'Waiting to be resumed.'
      : item.retryAt <= now
        ? 'Trying again now…'
        : `Trying again in ${formatDuration(item.retryAt - now)}.`;
  return `${reason}${when}`;
}

/** What a queue row shows of its item beside the item itself: the detail line reads these. */
export interface ItemFacts {
  item: QueueItem;
  now: number;
  rate: Rate | undefined;
  workspace: string;
  /** Its workspace was removed: nothing can be sent there again. */
  workspaceGone: boolean;
  queuedWhy: QueuedWhy;
}

export function ItemDetail(props: ItemFacts) {
  const { item } = props;
  const size = formatBytes(item.size);
  const labels = useDestinationLabels()(item.workspaceId, item.channels, item.labels);
  const where = (
    <>
      <DestinationList labels={labels} max={3} />
      {` in ${props.workspace}`}
    </>
  );
  // Each state's sentence after "size → destination": the row reads as one line.
  const to = (after: preact.ComponentChildren) => (
    <>
      {`${size} → `}
      {where}
      {after}
    </>
  );
  switch (item.state) {
    case 'queued':
      return to(`. ${queuedWait(props.queuedWhy, props.now)}`);
    case 'sending':
      return <>{sendingText(item, props.rate)}</>;
    case 'waiting':
      if (needsToken(item)) return to(`. On hold until a new token is saved.`);
      // Not a token problem: its message names the settings copy to put back.
      if (workspaceLost(item)) return <>{`${size}. ${item.error?.message ?? ''}`}</>;
      return <>{retryText(item, props.now)}</>;
    case 'delivered':
      return to(`.`);
    case 'failed':
      // Size and destination stay: which upload failed matters as much as why.
      return to(
        <>
          {'. '}
          <ServiceWording
            message={
              props.workspaceGone
                ? goneReason(item.error?.message ?? 'The upload failed.')
                : (item.error?.message ?? 'The upload failed, and no reason was given.')
            }
          />
        </>,
      );
    case 'unknown':
      return to(`.`);
    case 'cancelled':
      return to(
        `. ${props.workspaceGone ? 'Cancelled: its workspace was removed.' : 'Cancelled before it was delivered.'}`,
      );
  }
}
