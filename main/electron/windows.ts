// The app's two windows: the main window (all views) and, on Windows and Linux where trays
// take no drops, a small always-on-top drop window. Both load the same renderer page; the
// fragment picks the view (`#queue`, `#drop-window`).
import type {
  BrowserWindowConstructorOptions,
  HandlerDetails,
  ProgressBarOptions,
  WebPreferences,
  WindowOpenHandlerResponse,
} from 'electron';
import {
  type EventName,
  eventChannelOf,
  type TrayshareEvents,
  type View,
} from '../../preload/contract';
import type { RendererLocation } from './renderer-location';

/** The only webPreferences any window of this app gets. */
export function hardenedWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    // Middle-click would open links in new windows; the window-open handler denies them anyway.
    disableBlinkFeatures: 'Auxclick',
  };
}

/** The parts of Electron's WebContents this app uses. */
export interface WebContentsLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isLoading(): boolean;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
  on(
    event: 'will-navigate',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): this;
  on(
    event: 'will-attach-webview',
    listener: (
      event: { preventDefault(): void },
      webPreferences: WebPreferences,
      params: Record<string, string>,
    ) => void,
  ): this;
  on(event: 'did-finish-load', listener: () => void): this;
}

/** The parts of Electron's BrowserWindow this app uses. */
export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadFile(path: string, options?: { hash?: string }): Promise<void>;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isVisible(): boolean;
  isDestroyed(): boolean;
  setProgressBar(progress: number, options?: ProgressBarOptions): void;
  on(event: 'closed', listener: () => void): this;
  once(event: 'ready-to-show', listener: () => void): this;
}

export interface WindowsDeps {
  createWindow(options: BrowserWindowConstructorOptions): WindowLike;
  renderer: RendererLocation;
  preloadPath: string;
  /** Opens an https link in the person's browser (others are refused there). */
  openExternal(url: string): void;
  log(message: string): void;
  platform: NodeJS.Platform;
  /** Window icon on Linux and Windows. */
  iconPath?: string;
  /**
   * False on Wayland, where BrowserWindow's alwaysOnTop is "Not supported on Wayland (Linux)"
   * (https://www.electronjs.org/docs/latest/api/structures/base-window-options): the drop
   * window is then an ordinary window, and nothing claims otherwise.
   */
  keepsOnTop?: boolean;
}

export interface Windows {
  /** Shows the main window (creating it when needed) on a view. */
  showMain(view?: View): void;
  showDropWindow(): void;
  hideDropWindow(): void;
  toggleDropWindow(): void;
  setDropWindowPinned(pinned: boolean): void;
  isDropWindow(webContentsId: number): boolean;
  /** True for the web contents of a window this module created and that is still open. */
  isOwnWebContents(webContentsId: number): boolean;
  /** Sends an event to every window whose page has loaded; returns how many got it. */
  broadcast<E extends EventName>(event: E, payload: TrayshareEvents[E]): number;
  /** Sends an event to the main window; false when its page has not loaded (yet). */
  sendToMain<E extends EventName>(event: E, payload: TrayshareEvents[E]): boolean;
  /** Taskbar / dock progress: a fraction, or null for none. */
  setProgress(fraction: number | null, attention: boolean): void;
  /**
   * Hides the windows that show, so a screen capture does not picture Trayshare itself; returns
   * how many it hid and what shows them again (after a cancelled capture).
   */
  hideForCapture(): { hidden: number; restore(): void };
}

/** Navigation, new windows and webviews denied; https links go to the browser. */
export function guardWebContents(
  contents: WebContentsLike,
  openExternal: (url: string) => void,
  log: (message: string) => void,
): void {
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    log('Blocked a navigation away from the app page.');
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https:')) openExternal(url);
    return { action: 'deny' };
  });
}

interface Managed {
  window: WindowLike;
  loaded: boolean;
  onLoad: (() => void)[];
}

const MAIN_WINDOW: BrowserWindowConstructorOptions = {
  width: 480,
  height: 640,
  minWidth: 360,
  minHeight: 420,
  title: 'Trayshare',
};

/** A small target that stays above other windows where the display server allows it. */
function dropWindow(alwaysOnTop: boolean): BrowserWindowConstructorOptions {
  return {
    width: 240,
    height: 240,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop,
    skipTaskbar: true,
    title: 'Drop files to share',
  };
}

type Progress = { fraction: number | null; attention: boolean };

function applyProgress(window: WindowLike, progress: Progress) {
  if (progress.fraction === null) window.setProgressBar(-1);
  else
    window.setProgressBar(progress.fraction, {
      mode: progress.attention ? 'error' : 'normal',
    });
}

/** Runs `fn` once the window's page has loaded (now, if it has). */
function whenLoaded(managed: Managed, fn: () => void) {
  if (managed.loaded) fn();
  else managed.onLoad.push(fn);
}

function reveal(window: WindowLike) {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** A hardened window on the app page at `hash`, shown once it is ready. */
function openWindow(
  deps: WindowsDeps,
  options: BrowserWindowConstructorOptions,
  hash: string,
  applyProgressTo: (window: WindowLike) => void,
): Managed {
  const window = deps.createWindow({
    ...options,
    show: false,
    ...(deps.iconPath && deps.platform !== 'darwin' ? { icon: deps.iconPath } : {}),
    webPreferences: hardenedWebPreferences(deps.preloadPath),
  });
  const managed: Managed = { window, loaded: false, onLoad: [] };
  guardWebContents(window.webContents, deps.openExternal, deps.log);
  window.webContents.on('did-finish-load', () => {
    managed.loaded = true;
    for (const fn of managed.onLoad.splice(0)) fn();
  });
  window.once('ready-to-show', () => window.show());
  applyProgressTo(window);
  const load =
    deps.renderer.kind === 'file'
      ? window.loadFile(deps.renderer.indexPath, { hash })
      : window.loadURL(`${deps.renderer.url.replace(/#.*$/, '')}#${hash}`);
  load.catch((error: unknown) => {
    deps.log(`The app page did not load: ${error instanceof Error ? error.message : error}`);
  });
  return managed;
}

/** The windows that are open now; either may be closed (or never opened) at any time. */
interface Slots {
  main: Managed | undefined;
  drop: Managed | undefined;
  dropPinned: boolean;
  progress: Progress;
}

type Open = (options: BrowserWindowConstructorOptions, hash: string) => Managed;

const alive = (m: Managed | undefined): m is Managed => !!m && !m.window.isDestroyed();

/** The small drop window: shown and hidden with the tray, kept while pinned. */
function dropWindowMethods(
  deps: WindowsDeps,
  slots: Slots,
  open: Open,
): Pick<
  Windows,
  'showDropWindow' | 'hideDropWindow' | 'toggleDropWindow' | 'setDropWindowPinned' | 'isDropWindow'
> {
  const showDropWindow = () => {
    if (alive(slots.drop)) {
      slots.drop.window.show();
      return;
    }
    const created = open(dropWindow(deps.keepsOnTop ?? true), 'drop-window');
    slots.drop = created;
    created.window.on('closed', () => {
      if (slots.drop === created) slots.drop = undefined;
    });
  };
  return {
    showDropWindow,
    hideDropWindow() {
      if (alive(slots.drop) && !slots.dropPinned) slots.drop.window.hide();
    },
    toggleDropWindow() {
      if (alive(slots.drop) && slots.drop.window.isVisible()) {
        slots.drop.window.hide();
      } else {
        showDropWindow();
      }
    },
    setDropWindowPinned(pinned) {
      slots.dropPinned = pinned;
      if (pinned) showDropWindow();
    },
    isDropWindow(id) {
      return alive(slots.drop) && slots.drop.window.webContents.id === id;
    },
  };
}

export function createWindows(deps: WindowsDeps): Windows {
  const slots: Slots = {
    main: undefined,
    drop: undefined,
    dropPinned: false,
    progress: { fraction: null, attention: false },
  };
  const both = () => [slots.main, slots.drop];
  const open: Open = (options, hash) =>
    openWindow(deps, options, hash, (window) => applyProgress(window, slots.progress));

  return {
    showMain(view) {
      const main = slots.main;
      if (alive(main)) {
        reveal(main.window);
        if (view) {
          whenLoaded(main, () => main.window.webContents.send(eventChannelOf('show-view'), view));
        }
        return;
      }
      const created = open(MAIN_WINDOW, view ?? 'drop');
      slots.main = created;
      created.window.on('closed', () => {
        if (slots.main === created) slots.main = undefined;
      });
    },
    ...dropWindowMethods(deps, slots, open),
    isOwnWebContents(id) {
      return both().some((m) => alive(m) && m.window.webContents.id === id);
    },
    broadcast(event, payload) {
      let sent = 0;
      for (const m of both()) {
        if (alive(m) && m.loaded) {
          m.window.webContents.send(eventChannelOf(event), payload);
          sent++;
        }
      }
      return sent;
    },
    setProgress(fraction, attention) {
      slots.progress = { fraction, attention };
      for (const m of both()) if (alive(m)) applyProgress(m.window, slots.progress);
    },
    hideForCapture() {
      const shown = both().filter((m) => alive(m) && m.window.isVisible()) as Managed[];
      for (const m of shown) m.window.hide();
      return {
        hidden: shown.length,
        restore: () => {
          for (const m of shown) if (!m.window.isDestroyed()) m.window.show();
        },
      };
    },
    sendToMain(event, payload) {
      const main = slots.main;
      if (!alive(main) || !main.loaded) return false;
      main.window.webContents.send(eventChannelOf(event), payload);
      return true;
    },
  };
}
