// Native notifications for finished uploads. Items that finish together (one share of many
// files) are told in one notification per outcome rather than one per file. Acting on a
// delivered file copies its link; acting on a problem opens the queue, where it can be retried.
// A cancelled item gets none: the person just cancelled it.
// A notification the OS refuses ('failed': an unsigned macOS build, notifications turned off
// for the app on Windows) is logged and let go; one that matters opens its window instead.
import type { QueueItem, View } from '../../preload/contract';
import { plural } from '../core/plural';
import {
  decodeActivation,
  encodeActivation,
  type NoticeAction,
  windowsToastXml,
} from './notice-activation';

export interface NotificationLike {
  on(event: 'click', listener: () => void): this;
  on(event: 'close', listener: () => void): this;
  /** macOS and Windows: the OS would not show it; `error` says why. */
  on(event: 'failed', listener: (event: unknown, error: string) => void): this;
  show(): void;
}

export interface NotificationContent {
  title: string;
  body: string;
  /** What acting on the notification does. */
  act?: NoticeAction;
  /**
   * The person must learn of it (a share failed, the keychain is locked): when the OS will not
   * show the notification, its window opens instead.
   */
  important?: boolean;
}

/** Notification.handleActivation's details (ActivationArguments), the parts used here. */
export interface ActivationDetails {
  type: string;
  arguments: string;
}

export interface NotifierDeps {
  create(options: { title: string; body: string; toastXml?: string }): NotificationLike;
  isSupported(): boolean;
  /**
   * Windows: Notification.handleActivation. A click from Action Center after the object is
   * gone, or one that started the app, arrives here only.
   */
  handleActivation?(callback: (details: ActivationDetails) => void): void;
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
  /** How many notifications are kept for their clicks (shown and not yet closed or refused). */
  held(): number;
}

/**
 * What to say when the queue holds a workspace's uploads. A workspace the settings still have
 * had its token refused: Settings takes a new one. One they no longer have was lost with a
 * damaged settings file, and a token would not help: the message names the copy to put back.
 */
export function heldNotice(
  workspaceName: string | undefined,
  message: string,
  /** Signed in with Slack: what it needs is the person signing in again, not a token. */
  signedIn = false,
): NotificationContent & { view: View } {
  if (workspaceName === undefined) {
    return { title: 'Uploads wait for a lost workspace', body: message, view: 'queue' };
  }
  if (signedIn) {
    // The core's sentence says that the sign-in ran out and that the files wait.
    return { title: `Sign in to ${workspaceName} again`, body: message, view: 'settings' };
  }
  return {
    title: `${workspaceName} needs a new token`,
    body: `${message} Uploads to it wait until a new token is saved.`,
    view: 'settings',
  };
}

/** What to tell of items that finished together: one notification per outcome. */
function finishedNotices(
  items: QueueItem[],
  deps: Pick<NotifierDeps, 'describeChannels' | 'copiesLinks'>,
): NotificationContent[] {
  const delivered = items.filter((i) => i.state === 'delivered');
  const failed = items.filter((i) => i.state === 'failed');
  const unknown = items.filter((i) => i.state === 'unknown');
  const notices: NotificationContent[] = [];
  const channels = (list: QueueItem[]) =>
    deps.describeChannels([...new Set(list.flatMap((i) => i.channels))]);

  if (delivered.length === 1) {
    const item = delivered[0]!;
    const link = item.file?.permalink;
    notices.push({
      title: `Shared ${item.name}`,
      body: link
        ? `To ${channels(delivered)}. ${deps.copiesLinks?.() ? 'Its link is on the clipboard.' : 'Click to copy the link.'}`
        : `To ${channels(delivered)}.`,
      act: link ? { copy: link } : { open: 'history' },
    });
  } else if (delivered.length > 1) {
    notices.push({
      title: `Shared ${delivered.length} files`,
      body: `To ${channels(delivered)}. ${deps.copiesLinks?.() ? 'Their links are on the clipboard; click to see them.' : 'Click to see their links.'}`,
      act: { open: 'history' },
    });
  }
  if (failed.length > 0) {
    const first = failed[0]!;
    notices.push({
      title:
        failed.length === 1
          ? `Could not share ${first.name}`
          : `${plural(failed.length, 'file', 'files')} could not be shared`,
      body: `${first.error?.message ?? 'The upload failed.'} Click to open the queue.`,
      act: { open: 'queue' },
      important: true,
    });
  }
  if (unknown.length > 0) {
    notices.push({
      title:
        unknown.length === 1
          ? `${unknown[0]!.name} may have been delivered`
          : `${plural(unknown.length, 'file', 'files')} may have been delivered`,
      body: 'The whole file was sent but no answer came. Check the channel before sending it again.',
      act: { open: 'queue' },
      important: true,
    });
  }
  return notices;
}

/** Windows (where activations are handled) gets a toast whose click names the notice. */
function notificationOptions(
  content: NotificationContent,
  id: string,
  toast: boolean,
): { title: string; body: string; toastXml?: string } {
  return toast
    ? {
        title: content.title,
        body: content.body,
        toastXml: windowsToastXml(content.title, content.body, encodeActivation(id, content.act)),
      }
    : { title: content.title, body: content.body };
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const gatherMs = deps.gatherMs ?? 800;
  const setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  // Electron drops a notification's click handler once the object is garbage-collected:
  // keep each one until it is closed, clicked or refused.
  const live = new Set<NotificationLike>();
  let gathered: QueueItem[] = [];
  let scheduled = false;

  const act = (action: NoticeAction | undefined) => {
    if (!action) return;
    if ('copy' in action) deps.copyText(action.copy);
    else deps.openWindow(action.open);
  };

  // Windows hands a click to the object's 'click' and, from Action Center or at a cold start,
  // to handleActivation (the docs allow both for one click): each notice acts once.
  const acted: string[] = [];
  const actOnce = (id: string, action: NoticeAction | undefined) => {
    if (acted.includes(id)) return;
    acted.push(id);
    if (acted.length > 200) acted.shift();
    act(action);
  };
  // Unique across runs, so a click on an earlier run's toast is never taken for a new one's.
  let nextId = 0;
  const idPrefix = Date.now().toString(36);
  if (deps.handleActivation) {
    deps.handleActivation((details) => {
      if (details.type !== 'click') return;
      const notice = decodeActivation(details.arguments);
      if (notice) actOnce(notice.id, notice.action);
      else deps.log('A notification click named nothing Trayshare knows; it was ignored.');
    });
  }

  const notify = (content: NotificationContent) => {
    if (!deps.isSupported()) {
      // Not its title: "Shared report.pdf" would put a file's name in the log file.
      deps.log('Notification not shown (not supported here).');
      if (content.important) act(content.act);
      return;
    }
    const id = `${idPrefix}-${(nextId++).toString(36)}`;
    const n = deps.create(notificationOptions(content, id, deps.handleActivation !== undefined));
    live.add(n);
    n.on('click', () => {
      live.delete(n);
      actOnce(id, content.act);
    });
    n.on('close', () => live.delete(n));
    n.on('failed', (_event, error) => {
      live.delete(n);
      deps.log(`Notification not shown (${error}).`);
      if (content.important) act(content.act);
    });
    n.show();
  };

  return {
    notify,
    held: () => live.size,
    itemFinished(item) {
      if (item.state === 'cancelled') return;
      gathered.push(item);
      if (scheduled) return;
      scheduled = true;
      setTimer(() => {
        scheduled = false;
        const items = gathered;
        gathered = [];
        for (const content of finishedNotices(items, deps)) notify(content);
      }, gatherMs);
    },
  };
}
