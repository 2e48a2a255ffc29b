// electron-updater wired into the update policy (main/core/updates/): the updater is created
// only when this build updates itself, told to download in the background, install on quit and
// never go back a version; its events become the state Settings → About and the tray show, and
// "Restart to update" reaches quitAndInstall only once the queue is at rest.
import type { AppUpdater, UpdateCheckResult } from 'electron-updater';
import type { UpdatesApi, UpdateView } from '../core/api';
import {
  type Timers,
  type UpdateLogger,
  UpdatePolicy,
  type UpdateQueue,
} from '../core/updates/update-policy';
import type { UpdateSource } from '../core/updates/update-source';

/** The parts of electron-updater's AppUpdater this module uses. */
export type UpdaterLike = Pick<
  AppUpdater,
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'allowDowngrade'
  | 'logger'
  | 'on'
  | 'checkForUpdates'
  | 'quitAndInstall'
>;

export interface UpdatesDeps {
  source: UpdateSource;
  /** electron-updater's updater for this platform; called once, and only if the build updates itself. */
  createUpdater(): UpdaterLike;
  /** The "Check for updates automatically" preference at start. */
  automatic: boolean;
  queue: UpdateQueue;
  log: UpdateLogger;
  onChange(view: UpdateView): void;
  timers?: Timers;
}

export interface Updates extends UpdatesApi {
  view(): UpdateView;
  /** At start: the first check and the 6-hourly ones, when the build and the preference allow. */
  start(): void;
  setAutomatic(automatic: boolean): void;
  queueChanged(): void;
  dispose(): void;
}

/**
 * electron-updater's lines, one each: it logs whole stacks (and a feed's raw answer) on errors;
 * the policy logs what a failure means, so its own error lines are cut to their first line.
 */
function updaterLogger(log: UpdateLogger): NonNullable<AppUpdater['logger']> {
  const line = (message: unknown) => String(message).split('\n')[0]!.slice(0, 300);
  return {
    info: (message?: unknown) => log.info(`electron-updater: ${line(message)}`),
    warn: (message?: unknown) => log.warn(`electron-updater: ${line(message)}`),
    error: (message?: unknown) => log.warn(`electron-updater: ${line(message)}`),
  };
}

function configure(updater: UpdaterLike, policy: UpdatePolicy, log: UpdateLogger): UpdaterLike {
  updater.logger = updaterLogger(log);
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  // The default, said explicitly: a feed offering an older version is refused (AppUpdater
  // .isUpdateAvailable), and setting `channel` would turn this on, so we never set it.
  updater.allowDowngrade = false;
  updater.on('checking-for-update', () => policy.checking());
  updater.on('update-available', (info) => policy.found(info.version));
  updater.on('update-not-available', (info) => policy.notFound(info.version));
  // Emitted only after the file's sha512 matched the feed's (builder-util-runtime's
  // DigestTransform fails the download with ERR_CHECKSUM_MISMATCH otherwise).
  updater.on('update-downloaded', (event) => policy.downloaded(event.version));
  updater.on('error', (error) => policy.failed(error));
  return updater;
}

export function createUpdates(deps: UpdatesDeps): Updates {
  let updater: UpdaterLike | null = null;
  const theUpdater = (): UpdaterLike => {
    updater ??= configure(deps.createUpdater(), policy, deps.log);
    return updater;
  };
  const policy: UpdatePolicy = new UpdatePolicy({
    source: deps.source,
    automatic: deps.automatic,
    queue: deps.queue,
    log: deps.log,
    onChange: deps.onChange,
    ...(deps.timers ? { timers: deps.timers } : {}),
    check: async () => {
      let result: UpdateCheckResult | null;
      try {
        result = await theUpdater().checkForUpdates();
      } catch (error) {
        // A failure before electron-updater could emit it (e.g. no valid version to compare).
        if (!updater) policy.failed(error);
        throw error;
      }
      // The download's failure arrives as 'error' too; the promise itself must not go unhandled.
      result?.downloadPromise?.catch(() => undefined);
    },
    // Silent, then run the new version: the person asked for a restart, not an installer.
    install: () => theUpdater().quitAndInstall(true, true),
  });
  return {
    view: () => policy.view(),
    start: () => policy.start(),
    setAutomatic: (automatic) => policy.setAutomatic(automatic),
    queueChanged: () => policy.queueChanged(),
    dispose: () => policy.dispose(),
    getUpdates: async () => policy.view(),
    checkUpdatesNow: () => policy.checkNow(),
    restartToUpdate: () => policy.restartToUpdate(),
    cancelRestart: async () => policy.cancelRestart(),
  };
}
