// The running shell: binds the app service to IPC, keeps the tray, windows, shortcut,
// notifications and OS integrations in step with the service's events. Every Electron API
// arrives as a parameter (index.ts passes the real ones; tests pass fakes).
import type { OpenDialogOptions } from 'electron';
import type {
  AppService,
  CoreMethodName,
  HistoryEntry,
  Preferences,
  PreferencesPatch,
  QueueItem,
  Snapshot,
  TrayshareApi,
} from '../../preload/contract';
import { coreMethodArgs } from '../core/api';
import { destinationLabels } from '../portable/people-names';
import { shortcutLabel } from '../portable/shortcut-label';
import { type ClipboardLike, readClipboardFiles, readClipboardImage } from './clipboard-paths';
import { bindIpc, type IpcMainLike } from './ipc';
import {
  createNotifier,
  heldNotice,
  type NotificationContent,
  type NotifierDeps,
} from './notifications';
import { describeSender, isRendererUrl, type RendererLocation } from './renderer-location';
import { createShellApi } from './shell-api';
import { createShortcutManager, type GlobalShortcutLike } from './shortcut';
import { createTrayController, type TrayDeps } from './tray';
import type { TrayMenuActions, TrayMenuModel } from './tray-menu';
import { trayStatus } from './tray-status';
import type { Windows } from './windows';

const RECENT_LIMIT = 20;

export interface ShellDeps<Image, Menu> {
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
  /**
   * Wayland: the desktop's portal approves global shortcuts itself and `register` reports
   * success either way, so the person is told to approve it rather than told it is set.
   */
  shortcutNeedsApproval?: boolean;
  /** What the window tells about this desktop (desktop-notes.ts). */
  desktopNotes?: readonly string[];
  /** False on Wayland: no window can stay on top (windows.ts keepsOnTop). */
  keepsDropWindowOnTop?: boolean;
  quit(): void;
  log(message: string): void;
}

export interface Shell {
  /** Opens the share sheet with these paths (file-manager hand-off, tray drop, clipboard). */
  requestShare(paths: string[]): void;
  /** Shares straight to a preset; problems are told in a notification. */
  shareWithPreset(presetId: string, paths: string[]): Promise<void>;
  /** Shows the main window (a second launch without paths, the Dock icon). */
  activate(): void;
  dispose(): void;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function startShell<Image, Menu>(deps: ShellDeps<Image, Menu>): Promise<Shell> {
  const { service, windows, platform } = deps;
  let snapshot: Snapshot = await service.getSnapshot();
  let items: QueueItem[] = await service.listQueue();
  let recent: HistoryEntry[] = await service.listHistory({ limit: RECENT_LIMIT });
  const needsToken = new Set<string>();
  let pending: string[] = [];
  let applied: Preferences | undefined;

  // `#name` for channel IDs (`@name` for people and DMs) in notifications and the tray menu: the workspaces' cached
  // conversation lists first, then the labels presets were saved with; else the ID.
  let listedNames = new Map<string, string>();
  const loadChannelNames = async () => {
    const next = new Map<string, string>();
    for (const w of snapshot.workspaces) {
      try {
        let view = await service.listConversations(w.id, {});
        if (!view.conversations && view.refreshing) {
          view = await service.listConversations(w.id, { wait: true });
        }
        for (const [id, label] of destinationLabels(view.conversations, view.people)) {
          next.set(id, label);
        }
      } catch {
        // No list for this workspace: its channels show as IDs.
      }
    }
    listedNames = next;
  };
  const describeChannels = (ids: readonly string[]) => {
    const labels = new Map<string, string>();
    for (const preset of snapshot.presets) {
      for (const c of preset.channels)
        if (c.label)
          labels.set(c.id, c.label.startsWith('@') ? c.label : `#${c.label.replace(/^#/, '')}`);
    }
    const names = ids.map((id) => listedNames.get(id) ?? labels.get(id) ?? id);
    return names.length > 3
      ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`
      : names.join(', ');
  };

  const writeClipboard = (text: string) => {
    deps.clipboard
      .writeText(text)
      .catch((e: unknown) => deps.log(`Copy failed: ${errorMessage(e)}`));
  };

  const notifier = createNotifier({
    ...deps.notifications,
    copyText: writeClipboard,
    openWindow: (view) => windows.showMain(view),
    describeChannels,
    copiesLinks: () => snapshot.preferences.copyLinkOnDelivery,
    log: deps.log,
  });

  // "Copy the link when an upload is delivered": the links of one share, one a line, so a
  // share of several files leaves all of its links on the clipboard, not just the last one.
  const deliveredLinks = new Map<string, string[]>();
  const copyDeliveredLink = (item: QueueItem) => {
    const link = item.file?.permalink;
    if (item.state !== 'delivered' || !link || !snapshot.preferences.copyLinkOnDelivery) return;
    const links = [...(deliveredLinks.get(item.shareId) ?? []), link];
    // Only the latest share is kept: a new share's links replace the older ones on the clipboard.
    deliveredLinks.clear();
    deliveredLinks.set(item.shareId, links);
    writeClipboard(links.join('\n'));
  };
  const notify = (content: NotificationContent) => notifier.notify(content);

  const requestShare = (paths: string[]) => {
    const seen = new Set(pending);
    pending = [...pending, ...paths.filter((p) => !seen.has(p) && seen.add(p))];
    windows.showMain('share');
    // A loaded page gets them now; a page still loading takes them itself (takePendingPaths).
    if (pending.length > 0 && windows.sendToMain('share-requested', { paths: pending })) {
      pending = [];
    }
  };

  const shareWithPreset = async (presetId: string, paths: string[]) => {
    try {
      const result = await service.share({ target: { presetId }, paths });
      if (result.refused.length > 0) {
        const first = result.refused[0]!;
        notify({
          title:
            result.refused.length === 1
              ? 'One file was not shared'
              : `${result.refused.length} files were not shared`,
          body: `${first.path}: ${first.reason}`,
        });
      }
    } catch (error) {
      notify({
        title: 'Could not share',
        body: errorMessage(error),
        act: { open: 'presets' },
        important: true,
      });
    }
  };

  // From the tray menu or the shortcut, a menu-bar app is not the active app, and macOS opens
  // its file picker behind the app in front. The person just asked for the picker: take focus.
  const pickFiles = (): Promise<string[]> => {
    if (platform === 'darwin') deps.focusApp?.();
    return shellApi.pickFiles();
  };

  const shareTo = (presetId: string | null, paths: string[]) => {
    if (paths.length === 0) return;
    if (presetId) void shareWithPreset(presetId, paths);
    else requestShare(paths);
  };

  /**
   * What the clipboard holds to share: its files, else its image (a screenshot) saved as a PNG
   * in the state folder; null when it holds neither (`otherText` when it holds text).
   */
  const clipboardContent = async (): Promise<
    { paths: string[] } | { paths: null; otherText: boolean }
  > => {
    const clip = await readClipboardFiles(deps.clipboard, platform);
    if (clip.paths.length > 0) return { paths: clip.paths };
    const image = await readClipboardImage(deps.clipboard);
    if (image) return { paths: [await service.savePastedBytes(image)] };
    return { paths: null, otherText: clip.otherText };
  };

  const clipboardFiles = async (): Promise<string[] | null> => {
    let clip: Awaited<ReturnType<typeof clipboardContent>>;
    try {
      clip = await clipboardContent();
    } catch (error) {
      notify({ title: 'Could not share the clipboard', body: errorMessage(error) });
      return null;
    }
    if (clip.paths) return clip.paths;
    notify({
      title: 'Nothing to share on the clipboard',
      body: clip.otherText
        ? 'The clipboard holds text. Trayshare shares files and images only: save the text to a file, or copy files in your file manager.'
        : 'Copy files in your file manager, or take a screenshot to the clipboard, then share the clipboard.',
    });
    return null;
  };

  const setPreferences = async (patch: PreferencesPatch) => {
    const rest: PreferencesPatch = { ...patch };
    let shortcutError: string | undefined;
    const before = shortcuts.current();
    if (patch.shortcut !== undefined) {
      const result = shortcuts.apply(patch.shortcut);
      if (!result.ok) {
        shortcutError = result.error;
        delete rest.shortcut;
      }
    }
    let result: Awaited<ReturnType<AppService['setPreferences']>>;
    try {
      result = await service.setPreferences(rest);
    } catch (error) {
      shortcuts.apply(before);
      throw error;
    }
    await applyPreferences(result.preferences);
    if (shortcutError) {
      notify({
        title: 'Shortcut not available',
        body: shortcutError,
        act: { open: 'settings' },
      });
      return { ...result, shortcutError };
    }
    return result;
  };

  const trayActions: TrayMenuActions = {
    shareFiles: (presetId) => {
      void pickFiles().then((paths) => shareTo(presetId, paths));
    },
    shareClipboard: (presetId) => {
      void clipboardFiles().then((paths) => {
        if (paths) shareTo(presetId, paths);
      });
    },
    openWindow: (view) => windows.showMain(view),
    showDropWindow: () => windows.showDropWindow(),
    setDropWindowPinned: (pinned) => {
      void setPreferences({ dropWindowPinned: pinned }).catch((e: unknown) =>
        deps.log(`Could not change the drop window setting: ${errorMessage(e)}`),
      );
    },
    copyLink: writeClipboard,
    setPaused: (paused) => {
      service
        .setPaused(paused)
        .catch((e: unknown) => deps.log(`Could not pause: ${errorMessage(e)}`));
    },
    quit: () => deps.quit(),
  };

  const model = (): TrayMenuModel => ({
    status: trayStatus(items, { paused: snapshot.paused, needsToken: needsToken.size }),
    presets: snapshot.presets,
    workspaces: snapshot.workspaces,
    defaultPresetId: snapshot.defaultPresetId,
    paused: snapshot.paused,
    recent,
    describeChannels,
    hasDropWindow: platform !== 'darwin',
    dropWindowPinned: snapshot.preferences.dropWindowPinned,
  });

  const tray = createTrayController(
    {
      ...deps.tray,
      platform,
      actions: trayActions,
      onDropFiles: (paths) => {
        const preset = snapshot.defaultPresetId;
        if (snapshot.preferences.trayDropAction === 'default-preset' && preset) {
          void shareWithPreset(preset, paths);
        } else {
          requestShare(paths);
        }
      },
      onClick: () => windows.toggleDropWindow(),
    },
    model(),
  );

  const refresh = () => {
    const m = model();
    tray.update(m);
    windows.setProgress(
      m.status.percent === null || snapshot.paused ? null : m.status.percent / 100,
      m.status.state === 'attention',
    );
  };

  const onShortcut = async () => {
    let clip: Awaited<ReturnType<typeof clipboardContent>>;
    try {
      clip = await clipboardContent();
    } catch (error) {
      notify({ title: 'Could not share the clipboard', body: errorMessage(error) });
      return;
    }
    if (clip.paths) requestShare(clip.paths);
    else if (platform === 'darwin') shareTo(null, await pickFiles());
    else windows.showDropWindow();
  };
  const shortcuts = createShortcutManager({
    globalShortcut: deps.globalShortcut,
    onPress: () => {
      onShortcut().catch((e: unknown) => deps.log(`Shortcut action failed: ${errorMessage(e)}`));
    },
    platform,
  });

  /** Brings the OS in line with the preferences; only what changed since the last time. */
  async function applyPreferences(next: Preferences): Promise<void> {
    const prev = applied;
    applied = next;
    if (!prev || prev.shortcut !== next.shortcut) {
      const result = shortcuts.apply(next.shortcut);
      if (!result.ok) {
        notify({
          title: 'Shortcut not available',
          body: result.error,
          act: { open: 'settings' },
        });
      } else if (deps.shortcutNeedsApproval && prev && next.shortcut !== '') {
        // Changed by the person (at start the window's desktop notes say it once).
        notify({
          title: 'Approve the Trayshare shortcut',
          body: `Your desktop decides whether Trayshare may use ${shortcutLabel(next.shortcut, platform === 'darwin')}: allow it when asked. If nothing asks, set a shortcut in your desktop's keyboard settings.`,
          act: { open: 'settings' },
        });
      }
    }
    if (!prev || prev.launchAtLogin !== next.launchAtLogin) {
      await deps.setLaunchAtLogin(next.launchAtLogin).catch((error: unknown) =>
        notify({
          title: 'Launch at login could not be changed',
          body: errorMessage(error),
          act: { open: 'settings' },
          important: true,
        }),
      );
    }
    // At start only an installed integration is repaired; switching it off removes it.
    if (
      deps.setFileManagerIntegration &&
      (prev
        ? prev.fileManagerIntegration !== next.fileManagerIntegration
        : next.fileManagerIntegration)
    ) {
      await deps.setFileManagerIntegration(next.fileManagerIntegration).catch((error: unknown) =>
        notify({
          title: 'File manager integration failed',
          body: errorMessage(error),
          act: { open: 'settings' },
        }),
      );
    }
    if (platform !== 'darwin' && (!prev || prev.dropWindowPinned !== next.dropWindowPinned)) {
      windows.setDropWindowPinned(next.dropWindowPinned);
    }
  }

  const shellApi = createShellApi({
    platform,
    showOpenDialog: deps.showOpenDialog,
    writeClipboardText: (text) => deps.clipboard.writeText(text),
    openExternal: deps.openExternal,
    takePendingPaths: () => {
      const paths = pending;
      pending = [];
      return paths;
    },
    desktopNotes: deps.desktopNotes ?? [],
    keepsDropWindowOnTop: deps.keepsDropWindowOnTop ?? true,
  });

  const core = {} as Record<CoreMethodName, (...args: never[]) => Promise<unknown>>;
  for (const method of Object.keys(coreMethodArgs) as CoreMethodName[]) {
    core[method] = (...args: never[]) =>
      (service[method] as (...a: never[]) => Promise<unknown>)(...args);
  }
  const api: TrayshareApi = {
    ...(core as unknown as TrayshareApi),
    ...shellApi,
    setPreferences,
    setToken: async (workspaceId, token) => {
      await service.setToken(workspaceId, token);
      needsToken.delete(workspaceId);
      refresh();
    },
    saveToken: async (workspaceId, token) => {
      const result = await service.saveToken(workspaceId, token);
      if (result.saved) {
        needsToken.delete(workspaceId);
        refresh();
      }
      return result;
    },
    removeWorkspace: async (workspaceId) => {
      await service.removeWorkspace(workspaceId);
      needsToken.delete(workspaceId);
      refresh();
    },
  };

  const unbind = bindIpc({
    ipcMain: deps.ipcMain,
    api,
    isRendererUrl: (url) => isRendererUrl(deps.renderer, url, platform),
    isOwnWebContents: (id) => windows.isOwnWebContents(id),
    describeSender,
    log: deps.log,
    afterCall: (method, senderId) => {
      // A drop window that is not pinned goes away once its files are shared.
      if (method === 'share' && windows.isDropWindow(senderId)) windows.hideDropWindow();
    },
  });

  const unsubscribe = [
    service.on('queue-changed', (next) => {
      items = next;
      windows.broadcast('queue-changed', next);
      refresh();
    }),
    service.on('history-changed', () => {
      windows.broadcast('history-changed', null);
      void Promise.all([service.listHistory({ limit: RECENT_LIMIT }), loadChannelNames()]).then(
        ([entries]) => {
          recent = entries;
          refresh();
        },
      );
    }),
    service.on('settings-changed', (next) => {
      snapshot = next;
      windows.broadcast('settings-changed', next);
      for (const id of needsToken) {
        if (!next.workspaces.some((w) => w.id === id)) needsToken.delete(id);
      }
      refresh();
      void loadChannelNames().then(refresh);
      void applyPreferences(next.preferences);
    }),
    service.on('item-finished', (item) => {
      copyDeliveredLink(item);
      notifier.itemFinished(item);
    }),
    service.on('notice', ({ workspaceId, message }) => {
      const name = snapshot.workspaces.find((w) => w.id === workspaceId)?.name;
      notify({ title: name ?? 'Trayshare', body: message });
    }),
    service.on('needs-token', ({ workspaceId, message }) => {
      needsToken.add(workspaceId);
      const name = snapshot.workspaces.find((w) => w.id === workspaceId)?.name;
      const { view, ...notice } = heldNotice(name, message);
      notify({ ...notice, act: { open: view }, important: true });
      refresh();
    }),
  ];

  await applyPreferences(snapshot.preferences);
  refresh();
  void loadChannelNames().then(refresh);

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
    if (snapshot.workspaces.length === 0) windows.showMain('settings');
    else if (platform === 'linux') windows.showMain();
  }

  return {
    requestShare,
    shareWithPreset,
    activate: () => windows.showMain(),
    dispose() {
      for (const off of unsubscribe) off();
      unbind();
      shortcuts.dispose();
      tray.destroy();
    },
  };
}
