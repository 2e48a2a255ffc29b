// Updates as the running app drives them: the queue the restart waits for, the preference that
// turns automatic checks on and off, and where the state goes (the windows, the tray).
import type { AppService } from '../../preload/contract';
import { isActiveState } from '../portable/item-states';
import type { DesktopState } from './desktop-state';
import { createUpdates, type Updates, type UpdatesDeps } from './updates';
import type { Windows } from './windows';

/** What index.ts knows of the build: how it updates, electron-updater's updater, the log. */
export type DesktopUpdatesDeps = Pick<UpdatesDeps, 'source' | 'createUpdater' | 'timers'> & {
  /** Where update lines go (the app's log file); default: the app's `log`. */
  log?: UpdatesDeps['log'];
};

const NO_SELF_UPDATE: DesktopUpdatesDeps = {
  source: { updatesItself: false, reason: 'This build does not update itself.' },
  createUpdater: () => {
    throw new Error('This build has no updater.');
  },
};

export function createDesktopUpdates(deps: {
  service: Pick<AppService, 'settled' | 'on'>;
  state: DesktopState;
  windows: Pick<Windows, 'broadcast'>;
  /** The tray, whose menu offers "Restart to update". */
  refresh(): void;
  log(message: string): void;
  updates?: DesktopUpdatesDeps;
}): Updates {
  const { service, state } = deps;
  const { log, ...build } = deps.updates ?? NO_SELF_UPDATE;
  // Its own copy: this subscribes before the core event fan-out (event-fan-out.ts) updates `state.items`.
  let items = state.items;
  const updates = createUpdates({
    ...build,
    automatic: state.snapshot.preferences.checkForUpdates,
    queue: {
      // The queue's own wait for rest (queue/queue-events.ts): every upload finished, or waiting for
      // the person (a pause, a token); those resume from the journal after the restart.
      settled: () => service.settled(),
      running: () =>
        state.snapshot.paused ? 0 : items.filter((i) => isActiveState(i.state)).length,
    },
    log: log ?? { info: deps.log, warn: deps.log },
    onChange: (view) => {
      deps.windows.broadcast('updates-changed', view);
      deps.refresh();
    },
  });
  const unsubscribe = [
    service.on('queue-changed', (next) => {
      items = next;
      updates.queueChanged();
    }),
    service.on('settings-changed', (next) =>
      updates.setAutomatic(next.preferences.checkForUpdates),
    ),
  ];
  return {
    ...updates,
    dispose() {
      for (const off of unsubscribe) off();
      updates.dispose();
    },
  };
}
