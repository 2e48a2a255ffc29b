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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 100) / 10)} s`;
/** A share's id, short: enough to match the lines of one share. */
const short = (id: string) => id.slice(0, 8);

/** How the lines name things, as the settings say now. */
class Wording {
  constructor(private readonly settings: () => LogSettings) {}

  file(item: QueueItem): string {
    return describeFile(item.name, item.size, this.settings().detailed);
  }

  /** The failure policy's reason: code, class and message (with the file's name cut out). */
  why(item: QueueItem): string {
    const e = item.error;
    if (!e) return 'no reason given';
    const message = this.settings().detailed ? e.message : withoutName(e.message, item);
    return `${e.code} (${e.class}): ${message}`;
  }

  protocol(workspaceId: string): string {
    return this.settings().workspace(workspaceId)?.protocol ?? 'an unknown protocol';
  }

  workspace(workspaceId: string): string {
    return this.settings().workspace(workspaceId)?.name ?? workspaceId;
  }
}

/** Each wait before another try, once. */
function retryWatch(log: Log, say: Wording): (items: QueueItem[]) => void {
  const waits = new Map<string, string>();
  return (items) => {
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
        `Retry: ${say.file(item)} (share ${short(item.shareId)}, attempt ${item.attempts}) tries again in ${seconds(item.retryAt - item.updatedAt)} after ${say.why(item)}${asked}`,
      );
    }
  };
}

function shareLine(members: QueueItem[], say: Wording): string {
  const first = members[0] as QueueItem;
  const head = `Share ${short(first.shareId)} via ${say.protocol(first.workspaceId)}, ${plural(members.length, 'file')} to ${plural(first.channels.length, 'channel')}`;
  const parts = (['delivered', 'failed', 'unknown', 'cancelled'] as const).flatMap((state) => {
    const some = members.filter((i) => i.state === state);
    if (some.length === 0) return [];
    const label = state === 'unknown' ? 'may have been delivered' : state;
    const each = some.map((i) =>
      state === 'delivered' ? say.file(i) : `${say.file(i)}: ${say.why(i)}`,
    );
    return [`${some.length} ${label} (${each.join('; ')})`];
  });
  return `${head}: ${parts.join(', ')}`;
}

/**
 * A share's outcome, once its last file has finished. Told from the queue's change event (a
 * CLI command closes the queue as soon as it sees the outcome there) and from 'item-finished'
 * (which follows the history write), whichever comes first.
 */
function shareWatch(log: Log, say: Wording) {
  let latest = new Map<string, QueueItem>();
  const told = new Map<string, string>();
  const finished = (item: QueueItem) => {
    latest.set(item.id, item);
    const members = [...latest.values()].filter((i) => i.shareId === item.shareId);
    if (members.some((i) => isActiveState(i.state))) return;
    const key = members.map((i) => `${i.id}:${i.state}:${i.updatedAt}`).join(',');
    if (told.get(item.shareId) === key) return;
    told.set(item.shareId, key);
    log[members.every((i) => i.state === 'delivered') ? 'info' : 'warn'](shareLine(members, say));
  };
  const changed = (items: QueueItem[]) => {
    const before = latest;
    latest = new Map(items.map((i) => [i.id, i]));
    for (const item of items) {
      const was = before.get(item.id);
      if (was && isActiveState(was.state) && !isActiveState(item.state)) finished(item);
    }
  };
  return { changed, finished };
}

/** A token the service refused (an upload stopped for it, or Settings' check), once. */
function refusalWatch(log: Log, say: Wording) {
  const refusals = new Map<string, string>();
  const refused = (workspaceId: string, message: string) => {
    if (refusals.get(workspaceId) === message) return;
    refusals.set(workspaceId, message);
    log.warn(`Token refused for workspace “${say.workspace(workspaceId)}”: ${message}`);
  };
  const settingsChanged = (snapshot: Snapshot) => {
    for (const w of snapshot.workspaces) {
      if (w.tokenRefused) refused(w.id, w.tokenRefused);
      else refusals.delete(w.id);
    }
  };
  return { refused, settingsChanged };
}

/** Starts logging the service's activity; returns the unsubscriber. */
export function logActivity(
  service: Pick<AppService, 'on'>,
  log: Log,
  settings: () => LogSettings,
): () => void {
  const say = new Wording(settings);
  const retried = retryWatch(log, say);
  const shares = shareWatch(log, say);
  const tokens = refusalWatch(log, say);
  const off = [
    service.on('settings-changed', tokens.settingsChanged),
    service.on('queue-changed', (items) => {
      retried(items);
      shares.changed(items);
    }),
    service.on('needs-token', (e) => tokens.refused(e.workspaceId, e.message)),
    service.on('item-finished', shares.finished),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}
