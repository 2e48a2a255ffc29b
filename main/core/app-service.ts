// The core app service: one object whose methods are the IPC contract's core methods. The
// Electron layer binds it to ipcMain, the browser harness to a local transport, the CLI calls
// it directly. This file only composes: it opens the stores and wires the rooms a share passes
// through (intake, the queue, delivery, history); each method is one call into one of them.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppService } from './api';
import { openAuthMethods } from './auth/auth-methods';
import { openRenewal, type Renewal } from './auth/renewal';
import { takeCapture } from './capture/take-capture';
import {
  type Directory,
  forgetLists,
  historyNames,
  openDirectory,
} from './conversations/directory';
import { withPeople } from './conversations/named-lists';
import { CoreEventHub, relayEvents } from './core-events';
import { openDelivery, tokenLookup } from './delivery/delivery';
import { type HistoryStore, openHistoryStore } from './history/history-store';
import { OnceNotices } from './once-notices';
import { openPastedImages } from './pasted-images';
import { pauseMarker } from './pause-marker';
import { describePaths } from './queue/file-checks';
import { refusedTogether, sendToOthers } from './queue/send-to-others';
import { openUploadQueue, type UploadQueue } from './queue/upload-queue';
import { RefusedError } from './refused-error';
import type { SecretStore } from './secrets/secret-store';
import { DEFAULT_MAX_FILE_BYTES } from './settings/defaults';
import {
  openSettingsService,
  queueSettings,
  type SettingsService,
  type StoreFactory,
  settingsOncePerTurn,
  workspaceNow,
} from './settings/settings-service';
import { type Intake, openIntake } from './share/intake';
import { openTokenStatus, type TokenStatus } from './token-status';
import { probeProtocol } from './upload/protocol-probe';
import type { RetryPolicy } from './upload/retry';
import type { Transport } from './upload/transport';

export interface AppServiceDeps {
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
  /** After an unclear completion, how long files.info is asked whether it shared (default 30 s). */
  shareCheckWindowMs?: number;
  /**
   * How long a fetch of the channel list may wait out the service's Retry-After (the CLI's
   * --max-wait). 0, the default: the app keeps the list it has and asks again later.
   */
  listMaxWaitMs?: number;
  /**
   * Opens a URL in the person's browser (Sign in with Slack's consent page): the Electron side
   * passes shell.openExternal, the CLI its own opener. Absent or failing: 'no_browser'.
   */
  openBrowser?: (url: string) => Promise<void>;
  /**
   * The sign-in's loopback ports, tried in order (default SLACK_REDIRECT_PORTS, the ones the
   * Slack app lists; the CLI's --port); tests pass free ones that their reference service lists.
   */
  signInPorts?: readonly number[];
  /** One loopback port only: signInPorts of one. */
  signInPort?: number;
  /** How long a sign-in waits for the browser (default 5 minutes; the CLI's --timeout). */
  signInTimeoutMs?: number;
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
    renewal = renewalFor(s, deps, signInEnded);
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
      ...openDelivery({
        settings: workspaceNow(now),
        token,
        ...(renewal ? { renew: renewal.renew } : {}),
        dataDir: deps.dataDir,
        transport: deps.transport,
        connectTimeoutMs: deps.connectTimeoutMs,
        idleTimeoutMs: deps.idleTimeoutMs,
        ...(deps.shareCheckWindowMs !== undefined
          ? { shareCheckWindowMs: deps.shareCheckWindowMs }
          : {}),
        ...(deps.retry ? { retry: deps.retry } : {}),
        notices,
        ...d,
      }),
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

/** A signed-in workspace's token renewal; none for a token given to the process (TRAYSHARE_TOKEN). */
function renewalFor(
  s: SettingsService,
  deps: AppServiceDeps,
  signInEnded: { notify: () => void },
): Renewal | undefined {
  if (deps.tokenOverride) return undefined;
  return openRenewal({
    secrets: deps.secrets,
    transport: deps.transport,
    workspace: (id) => s.workspace(id),
    setTokenExpiry: (id, at) => s.setTokenExpiry(id, at),
    lockDir: deps.dataDir,
    // The snapshot's "Sign in again" changed; told once the service is bound.
    onExpired: () => signInEnded.notify(),
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
  const { settings, queue, history, pasted, notices, pause, deps } = parts;
  const { conversations, people } = parts.directory;
  const events = new CoreEventHub();
  const tokens = openTokenStatus({
    settings,
    queue,
    transport: deps.transport,
    // "No token saved" (or a refusal of the old token) was the answer for the old token: a
    // picker opened before the token was saved must list channels now, not an hour later.
    onTokenChanged: (workspaceId) => forgetLists(parts.directory, workspaceId),
    onChanged: (snapshot) => events.emit('settings-changed', snapshot),
  });

  parts.signInEnded.notify = tokens.changed;
  const auth = openAuthMethods({ ...parts, tokens });

  const unsubscribers = relayEvents(events, {
    queue,
    history,
    settings,
    notices,
    pasted,
    settingsChanged: tokens.changed,
  });

  return {
    getSnapshot: tokens.snapshot,
    ...settingsMethods(parts, tokens),
    ...shareMethods(parts),
    setPaused: async (paused) => {
      await pause.write(paused);
      queue.setPaused(paused);
      events.emit('settings-changed', await tokens.snapshot());
    },
    listHistory: async (query) => history.list(query),
    listConversations: async (workspaceId, query) => {
      if (!settings.workspace(workspaceId)) {
        throw new RefusedError('That workspace no longer exists.');
      }
      const [view, folks] = await Promise.all([
        conversations.get(workspaceId, query),
        people.get(workspaceId, query),
      ]);
      return withPeople(view, folks);
    },
    savePastedImage: (pngBase64) => pasted.save(Buffer.from(pngBase64, 'base64')),
    ...auth,
    savePastedBytes: (png) => pasted.save(png),
    takeCapture: (capturer, source) =>
      takeCapture({ capturer, source, dir: parts.pastedDir, keep: pasted.keep }),
    readCapture: async (path) => {
      const capture = await pasted.readCapture(path);
      // A copy of exactly the file's bytes: IPC would clone a view's whole backing buffer.
      return capture && { source: capture.source, png: new Uint8Array(capture.png) };
    },
    // A capture the queue holds stays: its share goes on (the queue's own rules delete it).
    discardCapture: async (path) => {
      if (!queue.list().some((item) => item.path === path)) pasted.discard(path);
    },
    settled: () => queue.settled(),
    watchSettings: () => settings.watch(),
    repairNotices: () =>
      [
        settings.notice(),
        queue.repairNotice(),
        history.repairNotice(),
        ...conversations.takeRepairNotices(),
      ].filter((n): n is string => n !== undefined),
    on: events.on,
    async close() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      events.clear();
      settings.close();
      await conversations.close();
      await people.close();
      await queue.close();
      await pasted.idle();
      await history.close();
    },
  };
}

/** Settings: workspaces and their tokens, presets, preferences, the checks of what is typed. */
function settingsMethods(
  parts: Parts,
  tokens: TokenStatus,
): Pick<
  AppService,
  | 'addWorkspace'
  | 'updateWorkspace'
  | 'removeWorkspace'
  | 'setToken'
  | 'saveToken'
  | 'probeProtocol'
  | 'clearToken'
  | 'testConnection'
  | 'addPreset'
  | 'updatePreset'
  | 'removePreset'
  | 'reorderPresets'
  | 'setDefaultPreset'
  | 'setPreferences'
  | 'checkChannels'
  | 'describePaths'
> {
  const { settings, queue, deps } = parts;
  return {
    addWorkspace: (input) => settings.addWorkspace(input),
    updateWorkspace: async (id, patch) => {
      const updated = await settings.updateWorkspace(id, patch);
      // Another address may list other channels, and a refusal from the old one no longer holds.
      if (patch.baseUrl !== undefined) forgetLists(parts.directory, id);
      return updated;
    },
    removeWorkspace: async (id) => {
      await settings.removeWorkspace(id);
      forgetLists(parts.directory, id);
    },
    setToken: tokens.setToken,
    saveToken: tokens.saveToken,
    probeProtocol: (baseUrl, token) => probeProtocol(baseUrl, token, deps.transport),
    clearToken: tokens.clearToken,
    testConnection: tokens.testConnection,
    addPreset: (input) => settings.addPreset(input),
    updatePreset: (id, patch) => settings.updatePreset(id, patch),
    removePreset: (id) => settings.removePreset(id),
    reorderPresets: (ids) => settings.reorderPresets(ids),
    setDefaultPreset: (id) => settings.setDefaultPreset(id),
    setPreferences: async (patch) => {
      const result = await settings.setPreferences(patch);
      if (patch.concurrency !== undefined) queue.reschedule();
      return result;
    },
    checkChannels: (text) => settings.checkChannels(text),
    describePaths: ({ paths, workspaceId }) =>
      describePaths(
        paths,
        workspaceId === undefined
          ? Number.MAX_SAFE_INTEGER
          : (settings.workspace(workspaceId)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
      ),
  };
}

/** A share: intake, then the queue; and what the person asks of its files afterwards. */
function shareMethods(
  parts: Parts,
): Pick<
  AppService,
  | 'share'
  | 'listQueue'
  | 'cancelItem'
  | 'retryItem'
  | 'sendToOthers'
  | 'changeDestination'
  | 'clearFinished'
> {
  const { queue, intake } = parts;
  return {
    share: async (request) => queue.enqueue(await intake.take(request)),
    listQueue: async () => queue.list(),
    cancelItem: (id) => queue.cancel(id),
    retryItem: (id) => queue.retry(id),
    sendToOthers: (id) => sendToOthers(queue, id),
    changeDestination: async (id, channels) => {
      const item = queue.list().find((i) => i.id === id);
      if (!item) throw new RefusedError('That upload is no longer in the queue.');
      const ids = await intake.destination(item.workspaceId, channels, item.threadTs);
      // Like "Send to the others": a share refused as a whole moves as a whole, as one share.
      await queue.retryTogether(item.state === 'failed' ? refusedTogether(queue, item) : [id], {
        channels: ids,
      });
    },
    clearFinished: () => queue.clearFinished(),
  };
}
