// What the queue view works out from the queue on each update: the speed samples, the token
// banners, rate-limit waits and which failures "Retry all" may touch. Kept out of the view so it
// reads as layout; each hook is called unconditionally, in the view's order.
import { useMemo, useRef } from 'preact/hooks';
import type { QueueItem, Snapshot } from '../../../preload/contract';
import { isHeld, needsToken, retiredProtocol, retryCanWork } from '../queue-state';
import { RateMeter } from '../rate';
import type { QueuedWhy } from './queue-item-detail';

const isRateLimit = (item: QueueItem): boolean =>
  item.error?.code === 'ratelimited' || item.error?.code === 'http_429';

/**
 * What "Retry all failed" retries: not files held for a token, a retired protocol, a removed
 * workspace, or a failure a retry would only repeat (retryCanWork).
 */
export function retryableFailures(queue: QueueItem[], snapshot: Snapshot): QueueItem[] {
  return queue.filter(
    (i) =>
      i.state === 'failed' &&
      !isHeld(i) &&
      !retiredProtocol(i) &&
      retryCanWork(i) &&
      snapshot.workspaces.some((w) => w.id === i.workspaceId),
  );
}

export function queuedWhy(
  workspaceId: string,
  paused: boolean,
  limitedUntil: Map<string, number>,
  at: number,
): QueuedWhy {
  return paused
    ? { kind: 'paused' }
    : (limitedUntil.get(workspaceId) ?? 0) > at
      ? { kind: 'rate-limit', until: limitedUntil.get(workspaceId)! }
      : { kind: 'slot' };
}

/**
 * The speed meter, sampled once per queue update during render so the first frame already has
 * it. Pause and resume start the speed over: bytes from before the pause would inflate it.
 */
export function useRateSamples(queue: QueueItem[], paused: boolean): RateMeter {
  const meter = useRef(new RateMeter());
  const recorded = useRef<QueueItem[] | null>(null);
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
  const pausedBefore = useRef(paused);
  if (pausedBefore.current !== paused) {
    pausedBefore.current = paused;
    meter.current.reset();
  }
  return meter.current;
}

/** Each workspace whose uploads wait for a token, once, with why. */
export function useTokenProblems(queue: QueueItem[]): [string, string][] {
  return useMemo(() => {
    const byWorkspace = new Map<string, string>();
    for (const item of queue) {
      if (needsToken(item) && !byWorkspace.has(item.workspaceId)) {
        byWorkspace.set(item.workspaceId, holdReason(item));
      }
    }
    return [...byWorkspace];
  }, [queue]);
}

/**
 * The rate-limit pauses this window has seen, by workspace. The queue holds a workspace until
 * its pause ends even once the file that met the limit is cancelled (scheduler.ts: the service
 * asked the workspace, not the file, to wait), so the pause is remembered past that file.
 */
const seenLimits = new Map<string, number>();

/**
 * Until when each workspace waits out the service's rate limit: a file queued meanwhile says
 * so, with the time left, rather than "waiting for a free slot" while nothing is sending.
 */
export function useLimitedUntil(queue: QueueItem[]): Map<string, number> {
  return useMemo(() => {
    const now = Date.now();
    for (const [ws, until] of seenLimits) if (until <= now) seenLimits.delete(ws);
    for (const i of queue) {
      if (i.state !== 'waiting' || i.retryAt === undefined || !isRateLimit(i)) continue;
      seenLimits.set(i.workspaceId, Math.max(seenLimits.get(i.workspaceId) ?? 0, i.retryAt));
    }
    // A file of the workspace sending again means its pause is over.
    for (const i of queue) if (i.state === 'sending') seenLimits.delete(i.workspaceId);
    return new Map(seenLimits);
  }, [queue]);
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
