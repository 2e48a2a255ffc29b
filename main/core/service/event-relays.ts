// The core's events (CoreEvents in api.ts): who listens, and the relays from the parts that
// raise them (the queue, history, settings, the once-notices), so a share's news reaches the
// UI without passing back through the composition root.
import type { AppService, CoreEvents } from '../api';
import type { HistoryStore } from '../history/history-store';
import type { OnceNotices } from '../once-notices';
import type { PastedImages } from '../pasted-images';
import type { UploadQueue } from '../queue/upload-queue';
import type { SettingsService } from '../settings/settings-service';

type Listener = (payload: never) => void;

export class CoreEventHub {
  private readonly listeners = new Map<keyof CoreEvents, Set<Listener>>();

  readonly on: AppService['on'] = (event, listener) => {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  };

  emit<E extends keyof CoreEvents>(event: E, payload: CoreEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      (listener as (p: CoreEvents[E]) => void)(payload);
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** Starts relaying; returns the unsubscribers. */
export function relayEvents(
  hub: CoreEventHub,
  from: {
    queue: UploadQueue;
    history: HistoryStore;
    settings: SettingsService;
    notices: OnceNotices;
    pasted: PastedImages;
    /** Sends 'settings-changed' with the settings as they are now. */
    settingsChanged: () => void;
  },
): (() => void)[] {
  const { queue, history, settings, notices, pasted } = from;
  return [
    queue.onNeedsToken(() => from.settingsChanged()),
    queue.onChange((items) => {
      // Most shares hold no pasted image: their changes need no look at each row for one.
      if (pasted.tracked.size > 0) pasted.update(items);
      hub.emit('queue-changed', items);
    }),
    queue.onFinished((item) => hub.emit('item-finished', item)),
    queue.onNeedsToken((event) => hub.emit('needs-token', event)),
    history.onChange(() => hub.emit('history-changed', null)),
    settings.onChange(from.settingsChanged),
    notices.on((notice) => hub.emit('notice', notice)),
  ];
}
