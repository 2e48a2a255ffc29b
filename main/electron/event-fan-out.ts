// The core's events, fanned out to everything that shows them: the open windows, the tray, the
// notifications and the clipboard; and what the app knows of the core, kept up to date.
import type { AppService, Preferences, QueueItem } from '../../preload/contract';
import { type DesktopState, RECENT_LIMIT } from './desktop-state';
import { heldNotice, type NotificationContent } from './notifications';
import type { Windows } from './windows';

interface CoreEventDeps {
  service: AppService;
  state: DesktopState;
  windows: Pick<Windows, 'broadcast'>;
  /** The tray and the taskbar progress. */
  refresh(): void;
  loadChannelNames(): Promise<void>;
  applyPreferences(next: Preferences): Promise<void>;
  itemFinished(item: QueueItem): void;
  notify(content: NotificationContent): void;
}

/** Subscribes to the core's events; returns a function that unsubscribes from all of them. */
export function fanOutCoreEvents(deps: CoreEventDeps): () => void {
  const { service, state, windows, refresh, notify } = deps;
  const workspaceName = (id: string) => state.snapshot.workspaces.find((w) => w.id === id)?.name;
  const unsubscribe = [
    service.on('queue-changed', (next) => {
      state.items = next;
      windows.broadcast('queue-changed', next);
      refresh();
    }),
    service.on('history-changed', () => {
      windows.broadcast('history-changed', null);
      void Promise.all([
        service.listHistory({ limit: RECENT_LIMIT }),
        deps.loadChannelNames(),
      ]).then(([entries]) => {
        state.recent = entries;
        refresh();
      });
    }),
    service.on('settings-changed', (next) => {
      state.snapshot = next;
      windows.broadcast('settings-changed', next);
      for (const id of state.needsToken) {
        if (!next.workspaces.some((w) => w.id === id)) state.needsToken.delete(id);
      }
      refresh();
      void deps.loadChannelNames().then(refresh);
      void deps.applyPreferences(next.preferences);
    }),
    service.on('item-finished', (item) => deps.itemFinished(item)),
    service.on('notice', ({ workspaceId, message }) => {
      notify({ title: workspaceName(workspaceId) ?? 'Trayshare', body: message });
    }),
    service.on('needs-token', ({ workspaceId, message }) => {
      state.needsToken.add(workspaceId);
      const signedIn =
        state.snapshot.workspaces.find((w) => w.id === workspaceId)?.auth === 'slack';
      const { view, ...notice } = heldNotice(workspaceName(workspaceId), message, signedIn);
      notify({ ...notice, act: { open: view }, important: true });
      refresh();
    }),
  ];
  return () => {
    for (const off of unsubscribe) off();
  };
}
