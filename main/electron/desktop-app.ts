// The running desktop app: binds the app service to IPC and keeps the tray, windows, shortcut,
// notifications and OS integrations in step with the service's events. Each of those has its
// own module; this one puts them together in the order they start. Every Electron API arrives
// as a parameter (index.ts passes the real ones; tests pass fakes).

import type { OpenDialogOptions } from 'electron';
import type { AppService, ShellApi, TrayshareApi } from '../../preload/contract';
import type { CaptureSource } from '../core/capture/capture-outcome';
import type { Capturer } from '../core/capture/take-capture';
import { errorMessage } from '../portable/error-message';
import { type Capture, createCapture } from './capture-wiring';
import type { ClipboardLike } from './clipboard-paths';
import { type ClipboardShare, createClipboardShare } from './clipboard-share';
import { type DesktopState, RECENT_LIMIT } from './desktop-state';
import { fanOutCoreEvents } from './event-fan-out';
import { createShortcutManager, type GlobalShortcutLike } from './global-shortcut';
import { bindIpc, type IpcMainLike } from './ipc';
import { wireNotifications } from './notification-wiring';
import type { NotificationContent, NotifierDeps } from './notifications';
import { createPreferencesSync } from './preferences-sync';
import { describeSender, isRendererUrl, type RendererLocation } from './renderer-location';
import { createSetupLinkRouting, type SetupLinkRouting } from './setup-link-routing';
import { createShareRouting, type ShareRouting } from './share-routing';
import { createShellApi, type LogsDeps } from './shell-api';
import type { TrayDeps } from './tray';
import { createTrayWiring } from './tray-wiring';
import { createDesktopUpdates, type DesktopUpdatesDeps } from './updates-wiring';
import { windowApi } from './window-api';
import type { Windows } from './windows';

export interface DesktopAppDeps<Image, Menu> {
  platform: NodeJS.Platform;
  service: AppService;
  ipcMain: IpcMainLike;
  windows: Windows;
  renderer: RendererLocation;
  tray: Pick<TrayDeps<Image, Menu>, 'createTray' | 'buildMenu' | 'loadImage' | 'iconDir'>;
  notifications: Pick<
    NotifierDeps,
    'create' | 'isSupported' | 'handleActivation' | 'gatherMs' | 'setTimeout'
  >;
  globalShortcut: GlobalShortcutLike;
  clipboard: ClipboardLike & { writeText(text: string): Promise<void> };
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  /** macOS: makes Trayshare the active app (app.focus({ steal: true })). */
  focusApp?(): void;
  openExternal(url: string): Promise<void>;
  /** Applies launch at login (OS API or XDG autostart). */
  setLaunchAtLogin(enabled: boolean): Promise<void>;
  /** Installs or removes "Share with Trayshare" in the file managers (also repairs it). */
  setFileManagerIntegration?(enabled: boolean): Promise<void>;
  /** A message when the keychain cannot be used, else null. */
  checkKeychain(): Promise<string | null>;
  /** The app was started by the login item: stay in the tray. */
  launchedAtLogin: boolean;
  /** How this build updates (updates.ts); absent: it never updates itself (tests, harnesses). */
  updates?: DesktopUpdatesDeps;
  /**
   * Wayland: the desktop's portal approves global shortcuts itself and `register` reports
   * success either way, so the person is told to approve it rather than told it is set.
   */
  shortcutNeedsApproval?: boolean;
  /** What the window tells about this desktop (desktop-notes.ts). */
  desktopNotes?: readonly string[];
  /** False on Wayland: no window can stay on top (windows.ts keepsOnTop). */
  keepsDropWindowOnTop?: boolean;
  /** The log's folder and diagnostics, for Settings → About. */
  logs?: LogsDeps;
  /** The screen capture tool (main/core/capture); absent: no Capture… and no capture shortcut. */
  capturer?: Capturer;
  /** macOS: the Screen Recording permission's state (systemPreferences.getMediaAccessStatus). */
  screenAccess?: () => string;
  quit(): void;
  log(message: string): void;
}

export interface DesktopApp {
  /** Opens the share sheet with these paths (file-manager hand-off, tray drop, clipboard). */
  requestShare(paths: string[]): void;
  /** Shares straight to a preset; problems are told in a notification. */
  shareWithPreset(presetId: string, paths: string[]): Promise<void>;
  /** Shows the main window (a second launch without paths, the Dock icon). */
  activate(): void;
  /** A trayshare://setup link from the OS: checked, then Settings offers Sign in with Slack with it. */
  openSetupLink(raw: string): void;
  /** Capture… (nothing where this build cannot capture). */
  capture(source?: CaptureSource): Promise<void>;
  dispose(): void;
}

/**
 * The shortcut shares the clipboard's files or image; with nothing there, it opens the file
 * picker (macOS, which has no drop window) or the drop window.
 */
async function shareFromShortcut(
  deps: Pick<DesktopAppDeps<unknown, unknown>, 'platform' | 'windows'>,
  clipboard: ClipboardShare,
  routing: ShareRouting,
  pickFiles: () => Promise<string[]>,
  notify: (content: NotificationContent) => void,
): Promise<void> {
  let clip: Awaited<ReturnType<ClipboardShare['content']>>;
  try {
    clip = await clipboard.content();
  } catch (error) {
    notify({ title: 'Could not share the clipboard', body: errorMessage(error) });
    return;
  }
  if (clip.paths) routing.requestShare(clip.paths);
  else if (deps.platform === 'darwin') routing.shareTo(null, await pickFiles());
  else deps.windows.showDropWindow();
}

/** What the person must know at start: a repaired settings file, an unusable keychain. */
async function tellAtStart<Image, Menu>(
  deps: DesktopAppDeps<Image, Menu>,
  state: DesktopState,
  notify: (content: NotificationContent) => void,
): Promise<void> {
  const { snapshot } = state;
  if (snapshot.settingsNotice) {
    notify({
      title: 'Trayshare repaired its settings',
      body: snapshot.settingsNotice,
      act: { open: 'settings' },
      important: true,
    });
  }
  const keychainProblem = await deps.checkKeychain();
  if (keychainProblem) {
    notify({
      title: 'Trayshare cannot use the keychain',
      body: keychainProblem,
      act: { open: 'settings' },
      important: true,
    });
  }
  // GNOME without the AppIndicator extension shows no tray icon at all, and nothing tells the
  // app: on Linux every start that is not the login item opens the window.
  if (!deps.launchedAtLogin) {
    if (snapshot.workspaces.length === 0) deps.windows.showMain('settings');
    else if (deps.platform === 'linux') deps.windows.showMain();
  }
}

/** The contract methods that need OS user-interface APIs (shell-api.ts). */
function osApi<Image, Menu>(
  deps: DesktopAppDeps<Image, Menu>,
  routing: ShareRouting,
  setupLinks: SetupLinkRouting,
): ShellApi {
  const shell = createShellApi({
    platform: deps.platform,
    showOpenDialog: deps.showOpenDialog,
    writeClipboardText: (text) => deps.clipboard.writeText(text),
    openExternal: deps.openExternal,
    takePendingPaths: routing.takePendingPaths,
    desktopNotes: deps.desktopNotes ?? [],
    keepsDropWindowOnTop: deps.keepsDropWindowOnTop ?? true,
    takeSetupLink: setupLinks.take,
    logs: deps.logs ?? NO_LOG,
  });
  return {
    ...shell,
    async pickFiles() {
      const paths = await shell.pickFiles();
      deps.service.offerImages(paths);
      return paths;
    },
  };
}

/** A run without a log file (some tests): the About buttons say so. */
const NO_LOG: LogsDeps = {
  dir: '',
  openPath: async () => 'this run keeps no log file',
  diagnostics: async () => {
    throw new Error('This run keeps no log file.');
  },
};

function bindWindowApi<Image, Menu>(deps: DesktopAppDeps<Image, Menu>, api: TrayshareApi) {
  const { windows, platform } = deps;
  return bindIpc({
    ipcMain: deps.ipcMain,
    api,
    isRendererUrl: (url) => isRendererUrl(deps.renderer, url, platform),
    isOwnWebContents: (id) => windows.isOwnWebContents(id),
    describeSender,
    log: deps.log,
    personGave: (paths) => deps.service.offerImages(paths),
    afterCall: (method, senderId) => {
      // A drop window that is not pinned goes away once its files are shared.
      if (method === 'share' && windows.isDropWindow(senderId)) windows.hideDropWindow();
    },
  });
}

/**
 * From the tray menu or the shortcut, a menu-bar app is not the active app, and macOS opens its
 * file picker behind the app in front. The person just asked for the picker: take focus.
 */
function pickerInFront(
  deps: Pick<DesktopAppDeps<unknown, unknown>, 'platform' | 'focusApp'>,
  pick: () => Promise<string[]>,
): () => Promise<string[]> {
  return () => {
    if (deps.platform === 'darwin') deps.focusApp?.();
    return pick();
  };
}

/** Capture…, where this build has a capture tool. */
function captureFor<Image, Menu>(
  deps: DesktopAppDeps<Image, Menu>,
  routing: ShareRouting,
  notify: (content: NotificationContent) => void,
): Capture | null {
  if (!deps.capturer) return null;
  return createCapture({
    service: deps.service,
    windows: deps.windows,
    routing,
    capturer: deps.capturer,
    // Screen Recording is macOS's (getMediaAccessStatus exists on macOS and Windows only).
    ...(deps.screenAccess && deps.platform === 'darwin' ? { screenAccess: deps.screenAccess } : {}),
    notify,
    log: deps.log,
  });
}

/** A global shortcut: its action's failure is a log line, never an unhandled rejection. */
function shortcutsFor(
  deps: Pick<DesktopAppDeps<unknown, unknown>, 'globalShortcut' | 'platform' | 'log'>,
  action: () => Promise<void>,
): ReturnType<typeof createShortcutManager> {
  return createShortcutManager({
    globalShortcut: deps.globalShortcut,
    onPress: () => {
      action().catch((e: unknown) => deps.log(`Shortcut action failed: ${errorMessage(e)}`));
    },
    platform: deps.platform,
  });
}

/** The share and capture shortcuts, and the preferences that register and change them. */
function shortcutsWithPreferences(
  deps: DesktopAppDeps<unknown, unknown>,
  capture: Capture | null,
  notify: (content: NotificationContent) => void,
  share: () => Promise<void>,
) {
  const shortcuts = shortcutsFor(deps, share);
  const captureShortcuts = capture ? shortcutsFor(deps, () => capture.start()) : null;
  const preferences = createPreferencesSync({
    ...deps,
    shortcuts: () => shortcuts,
    ...(captureShortcuts ? { captureShortcuts: () => captureShortcuts } : {}),
    notify,
  });
  return { preferences, shortcuts, captureShortcuts };
}

/** What the tray and the notifications start from: the settings, the queue, the last shares. */
async function loadState(
  service: DesktopAppDeps<unknown, unknown>['service'],
): Promise<DesktopState> {
  return {
    snapshot: await service.getSnapshot(),
    items: await service.listQueue(),
    recent: await service.listHistory({ limit: RECENT_LIMIT }),
    needsToken: new Set<string>(),
  };
}

export async function startDesktopApp<Image, Menu>(
  deps: DesktopAppDeps<Image, Menu>,
): Promise<DesktopApp> {
  const { service, windows, platform } = deps;
  const state = await loadState(service);
  const { labels, notify, itemFinished, writeClipboard } = wireNotifications(deps, state);
  const routing = createShareRouting({ service, windows, notify });
  const setupLinks = createSetupLinkRouting({ windows, notify, log: deps.log });
  const clipboard = createClipboardShare({ platform, clipboard: deps.clipboard, service, notify });
  const pickFiles = pickerInFront(deps, () => shellApi.pickFiles());
  const capture = captureFor(deps, routing, notify);
  const { preferences, shortcuts, captureShortcuts } = shortcutsWithPreferences(
    deps,
    capture,
    notify,
    () => shareFromShortcut(deps, clipboard, routing, pickFiles, notify),
  );
  const updates = createDesktopUpdates({
    ...deps,
    state,
    refresh: () => tray.refresh(),
  });
  const tray = createTrayWiring({
    ...deps,
    state,
    updates,
    routing,
    describeChannels: labels.describe,
    pickFiles,
    clipboardFiles: clipboard.files,
    setPreferences: preferences.set,
    writeClipboard,
    ...(capture ? { capture: () => void capture.start() } : {}),
  });
  const shellApi = osApi(deps, routing, setupLinks);
  const unbind = bindWindowApi(
    deps,
    windowApi({
      service,
      shellApi,
      state,
      setPreferences: preferences.set,
      refresh: tray.refresh,
      updates,
    }),
  );
  const unsubscribe = fanOutCoreEvents({
    service,
    state,
    windows,
    refresh: tray.refresh,
    loadChannelNames: labels.load,
    applyPreferences: preferences.apply,
    itemFinished,
    notify,
  });

  await preferences.apply(state.snapshot.preferences);
  tray.refresh();
  void labels.load().then(tray.refresh);
  await tellAtStart(deps, state, notify);
  updates.start();

  return {
    requestShare: routing.requestShare,
    shareWithPreset: routing.shareWithPreset,
    activate: () => windows.showMain(),
    openSetupLink: setupLinks.open,
    capture: async (source) => capture?.start(source),
    dispose() {
      unsubscribe();
      updates.dispose();
      unbind();
      shortcuts.dispose();
      captureShortcuts?.dispose();
      tray.destroy();
    },
  };
}
