// The notifications as the running app wires them: channel names from what the app knows, the
// clipboard for links, the window for acting on one; and the delivered links copied when the
// person asked for that.

import type { AppService, QueueItem } from '../../preload/contract';
import { errorMessage } from '../portable/error-message';
import { type ChannelLabels, createChannelLabels } from './channel-labels';
import { createLinkCopier } from './delivered-links';
import type { DesktopState } from './desktop-state';
import { createNotifier, type NotificationContent, type NotifierDeps } from './notifications';
import type { Windows } from './windows';

interface NotificationWiring {
  labels: ChannelLabels;
  notify(content: NotificationContent): void;
  /** A queue item finished: its notification, and its link on the clipboard if asked for. */
  itemFinished(item: QueueItem): void;
  /** Copies text; a failure is only logged (the person can copy again). */
  writeClipboard(text: string): void;
}

interface NotificationWiringDeps {
  service: Pick<AppService, 'listConversations'>;
  windows: Pick<Windows, 'showMain'>;
  notifications: Pick<
    NotifierDeps,
    'create' | 'isSupported' | 'handleActivation' | 'gatherMs' | 'setTimeout'
  >;
  clipboard: { writeText(text: string): Promise<void> };
  log(message: string): void;
}

export function wireNotifications(
  deps: NotificationWiringDeps,
  state: DesktopState,
): NotificationWiring {
  const labels = createChannelLabels(deps.service, () => state.snapshot);
  const writeClipboard = (text: string) => {
    deps.clipboard
      .writeText(text)
      .catch((e: unknown) => deps.log(`Copy failed: ${errorMessage(e)}`));
  };
  const notifier = createNotifier({
    ...deps.notifications,
    copyText: writeClipboard,
    openWindow: (view) => deps.windows.showMain(view),
    describeChannels: labels.describe,
    copiesLinks: () => state.snapshot.preferences.copyLinkOnDelivery,
    log: deps.log,
  });
  const copyDeliveredLink = createLinkCopier({
    enabled: () => state.snapshot.preferences.copyLinkOnDelivery,
    writeClipboard,
  });
  return {
    labels,
    notify: (content) => notifier.notify(content),
    itemFinished: (item) => {
      copyDeliveredLink(item);
      notifier.itemFinished(item);
    },
    writeClipboard,
  };
}
