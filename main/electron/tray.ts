// The tray icon: its image follows the queue (idle, uploading, needs attention), its tooltip
// (and on macOS its title) says how far uploads are, its context menu holds every action.
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { buildTrayMenu, type TrayMenuActions, type TrayMenuModel } from './tray-menu';
import type { TrayState } from './tray-status';

/** The parts of Electron's Tray this app uses (images and menus are opaque here). */
export interface TrayLike<Image, Menu> {
  setImage(image: Image): void;
  setToolTip(toolTip: string): void;
  setTitle(title: string): void;
  setContextMenu(menu: Menu | null): void;
  on(event: 'click', listener: () => void): this;
  on(event: 'double-click', listener: () => void): this;
  on(event: 'drop-files', listener: (event: unknown, files: string[]) => void): this;
  destroy(): void;
}

export interface TrayDeps<Image, Menu> {
  createTray(image: Image): TrayLike<Image, Menu>;
  buildMenu(template: MenuItemConstructorOptions[]): Menu;
  loadImage(path: string): Image;
  /** Folder of the tray PNGs: build/tray in development, resources/tray when packaged. */
  iconDir: string;
  platform: NodeJS.Platform;
  actions: TrayMenuActions;
  /** macOS: files dropped on the icon. */
  onDropFiles(paths: string[]): void;
  /** A left click where the OS reports one (Windows, some Linux trays). */
  onClick(): void;
}

/** The PNG for a state; macOS gets template images that follow the menu bar's appearance. */
function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  if (platform === 'darwin') {
    return {
      idle: 'trayTemplate.png',
      uploading: 'trayUploadingTemplate.png',
      attention: 'trayAttentionTemplate.png',
    }[state];
  }
  return `tray-${state}.png`;
}

/**
 * What a menu shows and what its items act on: the template without its functions, plus the
 * links the recent items copy (a link is not part of any label).
 */
function menuKey(template: MenuItemConstructorOptions[], model: TrayMenuModel): string {
  const shown = JSON.stringify(template, (_key, value: unknown) =>
    typeof value === 'function' ? undefined : value,
  );
  return `${shown}\n${JSON.stringify(model.recent.map((e) => e.permalink ?? null))}`;
}

export interface TrayController {
  update(model: TrayMenuModel): void;
  destroy(): void;
}

export function createTrayController<Image, Menu>(
  deps: TrayDeps<Image, Menu>,
  initial: TrayMenuModel,
): TrayController {
  const images = new Map<TrayState, Image>();
  const image = (state: TrayState) => {
    let img = images.get(state);
    if (!img) {
      // Electron picks the @2x file beside it on high-density screens.
      img = deps.loadImage(join(deps.iconDir, trayIconFile(state, deps.platform)));
      images.set(state, img);
    }
    return img;
  };
  const tray = deps.createTray(image(initial.status.state));
  let shownState: TrayState = initial.status.state;
  let shownMenu: string | undefined;
  tray.on('drop-files', (_event, files) => deps.onDropFiles(files));
  // macOS opens the context menu on click by itself.
  if (deps.platform !== 'darwin') {
    tray.on('click', () => deps.onClick());
  }

  const update = (model: TrayMenuModel) => {
    const { status } = model;
    if (status.state !== shownState) {
      tray.setImage(image(status.state));
      shownState = status.state;
    }
    tray.setToolTip(`Trayshare: ${status.summary}`);
    if (deps.platform === 'darwin') {
      tray.setTitle(status.percent === null || model.paused ? '' : `${status.percent}%`);
    }
    // Linux only picks up menu changes through a new setContextMenu call, and a new menu can
    // close the one the person has open (DBusMenu): set one only when its items change.
    const template = buildTrayMenu(model, deps.actions);
    const key = menuKey(template, model);
    if (key !== shownMenu) {
      tray.setContextMenu(deps.buildMenu(template));
      shownMenu = key;
    }
  };
  update(initial);
  return { update, destroy: () => tray.destroy() };
}
