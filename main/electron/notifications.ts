// Native notifications for finished uploads. Items that finish together (one share of many
// files) are told in one notification per outcome rather than one per file. Acting on a
// delivered file copies its link; acting on a problem opens the queue, where it can be retried.
// A cancelled item gets none: the person just cancelled it.
import type { QueueItem, View } from '../../preload/contract';
import { plural } from './wording';

export interface NotificationLike {
  on(event: 'click', listener: () => void): this;
  on(event: 'close', listener: () => void): this;
  show(): void;
}

export interface NotificationContent {
  title: string;
  body: string;
  /** What acting on the notification does. */
  onClick?: () => void;
}

export interface NotifierDeps {
  create(options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
  copyText(text: string): void;
  openWindow(view: View): void;
  /** Channel IDs as a person reads them (preset labels where known). */
  describeChannels(ids: readonly string[]): string;
  /** True when delivered links are copied by themselves (the copyLinkOnDelivery preference). */
  copiesLinks?(): boolean;
  log(message: string): void;
  /** How long to wait for more items of the same batch. */
  gatherMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

export interface Notifier {
  itemFinished(item: QueueItem): void;
  notify(content: NotificationContent): void;
}

/**
 * What to say when the queue holds a workspace's uploads. A workspace the settings still have
 * had its token refused: Settings takes a new one. One they no longer have was lost with a
 * damaged settings file, and a token would not help: the message names the copy to put back.
 */
export function heldNotice(
  workspaceName: string | undefined,
  message: string,
): NotificationContent & { view: View } {
  if (workspaceName === undefined) {
    return { title: 'Uploads wait for a lost workspace', body: message, view: 'queue' };
  }
  return {
    title: `${workspaceName} needs a new token`,
    body: `${message} Uploads to it wait until a new token is saved.`,
    view: 'settings',
  };
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const gatherMs = deps.gatherMs ?? 800;
  const setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  // Electron drops a notification's click handler once the object is garbage-collected:
  // keep each one until it is closed or clicked.
  const live = new Set<NotificationLike>();
  let gathered: QueueItem[] = [];
  let scheduled = false;

  const notify = (content: NotificationContent) => {
    if (!deps.isSupported()) {
      deps.log(`Notification not shown (not supported here): ${content.title}`);
      return;
    }
    const n = deps.create({ title: content.title, body: content.body });
    live.add(n);
    n.on('click', () => {
      live.delete(n);
      content.onClick?.();
    });
    n.on('close', () => live.delete(n));
    n.show();
  };

  const tell = (items: QueueItem[]) => {
    const delivered = items.filter((i) => i.state === 'delivered');
    const failed = items.filter((i) => i.state === 'failed');
    const unknown = items.filter((i) => i.state === 'unknown');
    const channels = (list: QueueItem[]) =>
      deps.describeChannels([...new Set(list.flatMap((i) => i.channels))]);

    if (delivered.length === 1) {
      const item = delivered[0]!;
      const link = item.file?.permalink;
      notify({
        title: `Shared ${item.name}`,
        body: link
          ? `To ${channels(delivered)}. ${deps.copiesLinks?.() ? 'Its link is on the clipboard.' : 'Click to copy the link.'}`
          : `To ${channels(delivered)}.`,
        onClick: () => (link ? deps.copyText(link) : deps.openWindow('history')),
      });
    } else if (delivered.length > 1) {
      notify({
        title: `Shared ${delivered.length} files`,
        body: `To ${channels(delivered)}. ${deps.copiesLinks?.() ? 'Their links are on the clipboard; click to see them.' : 'Click to see their links.'}`,
        onClick: () => deps.openWindow('history'),
      });
    }
    if (failed.length > 0) {
      const first = failed[0]!;
      notify({
        title:
          failed.length === 1
            ? `Could not share ${first.name}`
            : `${plural(failed.length, 'file', 'files')} could not be shared`,
        body: `${first.error?.message ?? 'The upload failed.'} Click to open the queue.`,
        onClick: () => deps.openWindow('queue'),
      });
    }
    if (unknown.length > 0) {
      notify({
        title:
          unknown.length === 1
            ? `${unknown[0]!.name} may have been delivered`
            : `${plural(unknown.length, 'file', 'files')} may have been delivered`,
        body: 'The whole file was sent but no answer came. Check the channel before sending it again.',
        onClick: () => deps.openWindow('queue'),
      });
    }
  };

  return {
    notify,
    itemFinished(item) {
      if (item.state === 'cancelled') return;
      gathered.push(item);
      if (scheduled) return;
      scheduled = true;
      setTimer(() => {
        scheduled = false;
        const items = gathered;
        gathered = [];
        tell(items);
      }, gatherMs);
    },
  };
}
