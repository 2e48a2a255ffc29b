// The core app service: one object whose methods are the IPC contract's core methods. The
// Electron layer binds it to ipcMain, the browser harness to a local transport, the CLI calls
// it directly. This file only composes: it opens the stores and wires the modules a share passes
// through (intake, the queue, delivery, history); each method is one call into one of them.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppService } from './api';
import { openAuthMethods, renewalFor, type SignInDeps } from './auth/auth-methods';
import type { Renewal } from './auth/renewal';
import {
  type Directory,
  destinations,
  forgetLists,
  historyNames,
  openDirectory,
} from './conversations/directory';
import { type DeliveryDeps, openDelivery } from './delivery/delivery';
import { tokenLookup } from './delivery/sending-as';
import { type HistoryStore, openHistoryStore } from './history/history-store';
import { OnceNotices } from './once-notices';
import { openPastedImages } from './pasted-images';
import { pauseMarker } from './pause-marker';
import { openUploadQueue, type UploadQueue } from './queue/upload-queue';
import type { SecretStore } from './secrets/secret-store';
import { captureMethods } from './service/capture-methods';
import { CoreEventHub, relayEvents } from './service/event-relays';
import { settingsMethods } from './service/settings-methods';
import { openTokenStatus } from './service/token-status';
import {
  openSettingsService,
  queueSettings,
  type SettingsService,
  type StoreFactory,
  settingsOncePerTurn,
  workspaceNow,
} from './settings/settings-service';
import { type Intake, openIntake, shareMethods } from './share/intake';
import { prepareShareMethod } from './share/prepare-share';
import type { RetryPolicy } from './upload/retry';
import type { Transport } from './upload/transport';

export interface AppServiceDeps extends SignInDeps {
  /** The user-data folder: settings file, and the state folder below. */
  dataDir: string;
  /**
   * Folder name for this process's queue journal and history, below dataDir. The app uses
   * "state", the CLI "cli-state", so the CLI works while the app runs; each journal has one
   * scheduler at a time (the queue's lock refuses a second one).
   */
  stateName?: string;
  secrets: SecretStore;
  transport: Transport;
  storeFactory?: StoreFactory;
  /** Files waiting for a token stay waiting, untried (a CLI command that only looks). */
  keepTokenWaits?: boolean;
  /** A token that wins over the keychain (the CLI's TRAYSHARE_TOKEN, for scripts). */
  tokenOverride?: string;
  /** Watch the settings file for changes made by another process (the app, for the CLI's edits). */
  watchSettings?: boolean;
  retry?: Partial<RetryPolicy>;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** After an unclear completion, how long files.info is asked whether it shared (default SHARE_CHECK_WINDOW_MS, upload/external/share-check.ts). */
  shareCheckWindowMs?: number;
  /**
   * How long a fetch of the channel list may wait out the service's Retry-After (the CLI's
   * --max-wait). 0, the default: the app keeps the list it has and asks again later.
   */
  listMaxWaitMs?: number;
}

export async function createAppService(deps: AppServiceDeps): Promise<AppService> {
  const stateDir = join(deps.dataDir, deps.stateName ?? 'state');
  await mkdir(stateDir, { recursive: true });
  const pause = pauseMarker(stateDir);
  const startPaused = await pause.read();
  const notices = new OnceNotices();
  const signInEnded = { notify: () => {} };

  let queue: UploadQueue | undefined;
  let directory: Directory | undefined;
  let history: HistoryStore | undefined;
  let settings: SettingsService | undefined;
  let intake: Intake | undefined;
  let renewal: Renewal | undefined;
  try {
    settings = openSettingsService({
      dir: deps.dataDir,
      secrets: deps.secrets,
      transport: deps.transport,
      storeFactory: deps.storeFactory,
      paused: () => queue?.paused() ?? false,
      watch: deps.watchSettings ?? false,
    });
    const s = settings;
    // The snapshot's "Sign in again" changed; told once the service is bound.
    renewal = renewalFor(s, deps, () => signInEnded.notify());
    // Files held for a token (or a sign-in) of a workspace since removed would wait for ever:
    // released, their next attempt finds the workspace gone and fails them as removed (or, when
    // a damaged settings file took it, holds them as workspace_lost), as it does for files that
    // were only queued.
    const now = settingsOncePerTurn(s, (id) => queue?.resumeWorkspace(id));
    const token = tokenLookup(s, deps.tokenOverride, renewal);
    const d = openDirectory({
      stateDir,
      settings: s,
      token,
      transport: deps.transport,
      listMaxWaitMs: deps.listMaxWaitMs ?? 0,
    });
    directory = d;
    history = await openHistoryStore({
      dir: join(stateDir, 'history'),
      ...historyNames(workspaceNow(now), d),
    });
    queue = await openUploadQueue({
      dir: join(stateDir, 'queue'),
      history,
      ...queueSettings(now),
      retry: deps.retry,
      startPaused,
      keepTokenWaits: deps.keepTokenWaits === true,
      ...deliveryFor(deps, { settings: workspaceNow(now), token, renewal, notices, ...d }),
    });
    intake = openIntake({ settings: s, token, ...d });
  } catch (error) {
    settings?.close();
    await directory?.conversations.close();
    await directory?.people.close();
    await queue?.close();
    await history?.close();
    throw error;
  }
  const pastedDir = join(stateDir, 'pasted');
  const pasted = openPastedImages(pastedDir);
  await pasted.sweep(queue.list());
  const parts = {
    ...{ settings, queue, history, directory, intake, pasted, pastedDir },
    ...{ notices, pause, deps },
  };
  return bindService({ ...parts, renewal, signInEnded });
}

/** Delivery with this process's transport, timeouts and retry policy. */
function deliveryFor(
  deps: AppServiceDeps,
  rooms: Pick<DeliveryDeps, 'settings' | 'token' | 'notices' | 'conversations' | 'people'> & {
    renewal: Renewal | undefined;
  },
): ReturnType<typeof openDelivery> {
  const { renewal, ...rest } = rooms;
  return openDelivery({
    ...rest,
    ...(renewal ? { renew: renewal.renew } : {}),
    dataDir: deps.dataDir,
    transport: deps.transport,
    connectTimeoutMs: deps.connectTimeoutMs,
    idleTimeoutMs: deps.idleTimeoutMs,
    ...(deps.shareCheckWindowMs !== undefined
      ? { shareCheckWindowMs: deps.shareCheckWindowMs }
      : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
  });
}

interface Parts {
  settings: SettingsService;
  queue: UploadQueue;
  history: HistoryStore;
  directory: Directory;
  intake: Intake;
  pasted: ReturnType<typeof openPastedImages>;
  /** Pasted images and screen captures, private to the person. */
  pastedDir: string;
  notices: OnceNotices;
  pause: ReturnType<typeof pauseMarker>;
  deps: AppServiceDeps;
  renewal: Renewal | undefined;
  signInEnded: { notify: () => void };
}

function bindService(parts: Parts): AppService {
  const { settings, queue, history, directory, pasted, notices, pause, deps } = parts;
  const events = new CoreEventHub();
  const tokens = openTokenStatus({
    settings,
    queue,
    transport: deps.transport,
    // "No token saved" (or a refusal of the old token) was the answer for the old token: a
    // picker opened before the token was saved must list channels now, not an hour later.
    onTokenChanged: (workspaceId) => forgetLists(directory, workspaceId),
    onChanged: (snapshot) => events.emit('settings-changed', snapshot),
  });
  parts.signInEnded.notify = tokens.changed;
  const unsubscribers = relayEvents(events, {
    ...{ queue, history, settings, notices, pasted },
    settingsChanged: tokens.changed,
  });
  return {
    getSnapshot: tokens.snapshot,
    ...settingsMethods({ settings, queue, directory, transport: deps.transport, tokens }),
    ...shareMethods(queue, parts.intake),
    prepareShare: prepareShareMethod({ settings, transport: deps.transport }),
    ...openAuthMethods({ ...parts, tokens }),
    ...captureMethods({
      pasted,
      dir: parts.pastedDir,
      queued: (path) => queue.list().some((item) => item.path === path),
    }),
    setPaused: async (paused) => {
      await pause.write(paused);
      queue.setPaused(paused);
      events.emit('settings-changed', await tokens.snapshot());
    },
    listHistory: async (query) => history.list(query),
    listConversations: destinations(directory, settings),
    settled: () => queue.settled(),
    watchSettings: () => settings.watch(),
    repairNotices: () =>
      [
        settings.notice(),
        queue.repairNotice(),
        history.repairNotice(),
        ...directory.conversations.takeRepairNotices(),
      ].filter((n): n is string => n !== undefined),
    on: events.on,
    async close() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      events.clear();
      settings.close();
      await directory.conversations.close();
      await directory.people.close();
      await queue.close();
      await pasted.idle();
      await history.close();
    },
  };
}
