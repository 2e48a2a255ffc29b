// What the queue did, told to the log from the events the core already emits: the share path
// gains no stop for logging. A share's outcome once all its files have finished; each wait
// before another try and why (the failure policy's reason, the service's Retry-After); a token
// the service refused. Never a token or a comment; a file as its kind and size unless the person
// turned on "Detailed logs".

import { isActiveState } from '../../portable/item-states';
import type { AppService, Snapshot } from '../api';
import type { QueueItem } from '../model';
import { describeFile, withoutName } from './describe-file';
import type { Log } from './log';
import type { LogSettings } from './settings-on-disk';

type Watched = Pick<AppService, 'on'>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 100) / 10)} s`;

/** Starts logging the service's activity; returns the unsubscriber. */
export function logActivity(service: Watched, log: Log, settings: () => LogSettings): () => void {
  const detailed = () => settings().detailed;
  const protocolOf = (workspaceId: string) =>
    settings().workspace(workspaceId)?.protocol ?? 'an unknown protocol';
  const file = (item: QueueItem) => describeFile(item.name, item.size, detailed());
  const why = (item: QueueItem) => {
    const e = item.error;
    if (!e) return 'no reason given';
    const message = detailed() ? e.message : withoutName(e.message, item);
    return `${e.code} (${e.class}): ${message}`;
  };

  const waits = new Map<string, string>();
  const retried = (items: QueueItem[]) => {
    const present = new Set(items.map((i) => i.id));
    for (const id of waits.keys()) if (!present.has(id)) waits.delete(id);
    for (const item of items) {
      if (item.state !== 'waiting' || !item.error || item.retryAt === undefined) continue;
      const key = `${item.attempts}:${item.retryAt}`;
      if (waits.get(item.id) === key) continue;
      waits.set(item.id, key);
      const asked =
        item.error.retryAfterMs !== undefined
          ? `; the service asked to wait ${seconds(item.error.retryAfterMs)} (Retry-After)`
          : '';
      log.warn(
        `Retry: ${file(item)} (share ${short(item.shareId)}, attempt ${item.attempts}) tries again in ${seconds(item.retryAt - item.updatedAt)} after ${why(item)}${asked}`,
      );
    }
  };

  // The queue as its last change event showed it: a share's outcome is told from it at once
  // when its last file finishes (a CLI command ends as soon as the queue settles).
  let latest = new Map<string, QueueItem>();
  const told = new Map<string, string>();
  const shareDone = (finished: QueueItem) => {
    latest.set(finished.id, finished);
    const members = [...latest.values()].filter((i) => i.shareId === finished.shareId);
    if (members.some((i) => isActiveState(i.state))) return;
    const key = members.map((i) => `${i.id}:${i.state}:${i.updatedAt}`).join(',');
    if (told.get(finished.shareId) === key) return;
    told.set(finished.shareId, key);
    log[members.every((i) => i.state === 'delivered') ? 'info' : 'warn'](shareLine(members));
  };
  const shareLine = (members: QueueItem[]) => {
    const first = members[0] as QueueItem;
    const head = `Share ${short(first.shareId)} via ${protocolOf(first.workspaceId)}, ${plural(members.length, 'file')} to ${plural(first.channels.length, 'channel')}`;
    const parts = (['delivered', 'failed', 'unknown', 'cancelled'] as const).flatMap((state) => {
      const some = members.filter((i) => i.state === state);
      if (some.length === 0) return [];
      const label = state === 'unknown' ? 'may have been delivered' : state;
      const each = some.map((i) => (state === 'delivered' ? file(i) : `${file(i)}: ${why(i)}`));
      return [`${some.length} ${label} (${each.join('; ')})`];
    });
    return `${head}: ${parts.join(', ')}`;
  };

  const refusals = new Map<string, string>();
  const refused = (workspaceId: string, message: string) => {
    if (refusals.get(workspaceId) === message) return;
    refusals.set(workspaceId, message);
    const name = settings().workspace(workspaceId)?.name ?? workspaceId;
    log.warn(`Token refused for workspace “${name}”: ${message}`);
  };
  const settingsChanged = (next: Snapshot) => {
    for (const w of next.workspaces) {
      if (w.tokenRefused) refused(w.id, w.tokenRefused);
      else refusals.delete(w.id);
    }
  };

  const off = [
    service.on('settings-changed', settingsChanged),
    service.on('queue-changed', (items) => {
      const before = latest;
      latest = new Map(items.map((i) => [i.id, i]));
      retried(items);
      // Told here, not only on 'item-finished': that comes after the history is written, and
      // a CLI command may close the queue as soon as it sees the outcome here.
      for (const item of items) {
        const was = before.get(item.id);
        if (was && isActiveState(was.state) && !isActiveState(item.state)) shareDone(item);
      }
    }),
    service.on('needs-token', (e) => refused(e.workspaceId, e.message)),
    service.on('item-finished', shareDone),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}

/** A share's id, short: enough to match lines of one share. */
function short(id: string): string {
  return id.slice(0, 8);
}
