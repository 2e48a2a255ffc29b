// The tray's context menu. Linux trays may never report clicks, so every action the app has is
// reachable from here: sharing, the windows, recent links, pause, settings, quit.
import type { MenuItemConstructorOptions } from 'electron';
import type { HistoryEntry, Preset, View, WorkspaceView } from '../../preload/contract';
import type { TrayStatus } from './tray-status';

export interface TrayMenuModel {
  status: TrayStatus;
  presets: readonly Preset[];
  workspaces: readonly WorkspaceView[];
  defaultPresetId: string | null;
  paused: boolean;
  /** Newest first. */
  recent: readonly HistoryEntry[];
  /** `#design-review, C0PLAIN`: names where the app knows them, IDs otherwise. */
  describeChannels(ids: readonly string[]): string;
  /** Windows and Linux: the drop window exists there. */
  hasDropWindow: boolean;
  /** This build has a screen capture tool for this OS (Capture…). */
  canCapture?: boolean;
  dropWindowPinned: boolean;
  /** A downloaded update: "Restart to update to 1.2.0", or the wait for the queue. */
  update?: { restartLabel: string; waiting?: string };
}

export interface TrayMenuActions {
  /** Pick files, then share them with this preset (null: open the share sheet with them). */
  shareFiles(presetId: string | null): void;
  /** Share the files on the clipboard with this preset (null: open the share sheet with them). */
  shareClipboard(presetId: string | null): void;
  openWindow(view?: View): void;
  showDropWindow(): void;
  setDropWindowPinned(pinned: boolean): void;
  copyLink(url: string): void;
  /** A screenshot into the share sheet. */
  capture(): void;
  setPaused(paused: boolean): void;
  restartToUpdate(): void;
  cancelRestart(): void;
  quit(): void;
}

const RECENT_IN_MENU = 8;

// `&` starts a mnemonic on Windows and Linux: a preset or file name shows as typed.
const label = (text: string) => text.replace(/&/g, '&&');

function presetLabel(preset: Preset, model: TrayMenuModel): string {
  const multipleWorkspaces = new Set(model.presets.map((p) => p.workspaceId)).size > 1;
  const workspace = model.workspaces.find((w) => w.id === preset.workspaceId);
  const suffix = preset.id === model.defaultPresetId ? ' (default)' : '';
  return label(
    multipleWorkspaces && workspace
      ? `${preset.name} · ${workspace.name}${suffix}`
      : `${preset.name}${suffix}`,
  );
}

function shareSubmenu(
  model: TrayMenuModel,
  act: (presetId: string | null) => void,
  sheetLabel: string,
): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = model.presets.map((preset) => {
    const workspace = model.workspaces.find((w) => w.id === preset.workspaceId);
    const ready = !!workspace?.hasToken && preset.channels.length > 0;
    return {
      id: `preset:${preset.id}`,
      label: presetLabel(preset, model),
      enabled: ready,
      toolTip: ready ? undefined : 'Add a token and channels to this preset first',
      click: () => act(preset.id),
    };
  });
  if (items.length === 0) {
    items.push({ id: 'no-presets', label: 'No presets yet', enabled: false });
  }
  items.push(
    { type: 'separator' },
    { id: 'share-sheet', label: sheetLabel, click: () => act(null) },
  );
  return items;
}

/** Offered at the top while an update is downloaded; the wait for the queue is shown there too. */
function updateItems(
  update: NonNullable<TrayMenuModel['update']>,
  actions: TrayMenuActions,
): MenuItemConstructorOptions[] {
  if (update.waiting !== undefined) {
    return [
      { id: 'update-waiting', label: label(update.waiting), enabled: false },
      { id: 'update-cancel', label: 'Cancel restart', click: () => actions.cancelRestart() },
    ];
  }
  return [
    { id: 'update-restart', label: update.restartLabel, click: () => actions.restartToUpdate() },
  ];
}

function recentLabel(entry: HistoryEntry, model: TrayMenuModel): string {
  const name = entry.name.length > 40 ? `${entry.name.slice(0, 39)}…` : entry.name;
  return label(`${name} → ${model.describeChannels(entry.channels)}`);
}

export function buildTrayMenu(
  model: TrayMenuModel,
  actions: TrayMenuActions,
): MenuItemConstructorOptions[] {
  const recent = model.recent.filter((e) => e.outcome === 'delivered').slice(0, RECENT_IN_MENU);
  const recentItems: MenuItemConstructorOptions[] = recent.map((entry) => {
    const link = entry.permalink;
    return {
      id: `recent:${entry.id}`,
      label: recentLabel(entry, model),
      enabled: !!link,
      toolTip: link ? 'Copy the link' : 'The service gave no link for this file',
      click: () => {
        if (link) actions.copyLink(link);
      },
    };
  });
  if (recentItems.length === 0) {
    recentItems.push({ id: 'no-recent', label: 'Nothing shared yet', enabled: false });
  }
  recentItems.push(
    { type: 'separator' },
    { id: 'history', label: 'Show history', click: () => actions.openWindow('history') },
  );

  const template: MenuItemConstructorOptions[] = [
    { id: 'status', label: label(model.status.menuSummary), enabled: false },
    ...(model.update ? updateItems(model.update, actions) : []),
    { type: 'separator' },
    {
      id: 'share-files',
      label: 'Share files…',
      submenu: shareSubmenu(model, actions.shareFiles, 'Choose channels…'),
    },
    {
      id: 'share-clipboard',
      label: 'Share clipboard',
      submenu: shareSubmenu(model, actions.shareClipboard, 'Choose channels…'),
    },
  ];
  if (model.canCapture) {
    template.push({ id: 'capture', label: 'Capture…', click: () => actions.capture() });
  }
  if (model.hasDropWindow) {
    template.push(
      { id: 'drop-window', label: 'Drop window', click: () => actions.showDropWindow() },
      {
        id: 'drop-window-pinned',
        label: 'Keep drop window open',
        type: 'checkbox',
        checked: model.dropWindowPinned,
        click: () => actions.setDropWindowPinned(!model.dropWindowPinned),
      },
    );
  }
  template.push(
    { type: 'separator' },
    { id: 'open', label: 'Open Trayshare', click: () => actions.openWindow() },
    {
      id: 'queue',
      label: model.status.active > 0 ? `Uploads (${model.status.active})` : 'Uploads',
      click: () => actions.openWindow('queue'),
    },
    { id: 'recent', label: 'Recent uploads', submenu: recentItems },
    {
      id: 'pause',
      label: model.paused ? 'Resume uploads' : 'Pause uploads',
      click: () => actions.setPaused(!model.paused),
    },
    { type: 'separator' },
    { id: 'presets', label: 'Presets…', click: () => actions.openWindow('presets') },
    { id: 'settings', label: 'Settings…', click: () => actions.openWindow('settings') },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Trayshare', click: () => actions.quit() },
  );
  return template;
}
