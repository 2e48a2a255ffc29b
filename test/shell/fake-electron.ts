// A stand-in for the few Electron APIs the shell uses (the Electron binary cannot run here).
// Each fake records what the shell did and lets a test act as the OS or the person: click a
// menu item, drop files on the tray, press the shortcut, click a notification, call IPC from
// a page.
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import type { ClipboardItemLike, ClipboardLike } from '../../main/electron/clipboard-paths';
import type { GlobalShortcutLike } from '../../main/electron/global-shortcut';
import type { InvokeEvent, IpcMainLike } from '../../main/electron/ipc';
import type { NotificationLike } from '../../main/electron/notifications';
import type { TrayLike } from '../../main/electron/tray';
import type { WindowLike } from '../../main/electron/windows';

type Listener = (event: InvokeEvent, ...args: unknown[]) => unknown;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke(channel, …args) from `event`'s frame would get. */
  async invoke(event: InvokeEvent, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

let nextId = 1;

class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  url = '';
  loaded = false;
  readonly sent: { channel: string; payload: unknown }[] = [];
  openHandler?: (details: { url: string }) => { action: string };
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isLoading() {
    return !this.loaded;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** The page finished loading (the renderer has subscribed to its events by then). */
  finishLoad() {
    this.loaded = true;
    this.emit('did-finish-load');
  }
  /** A navigation attempt; true when the app let it happen. */
  tryNavigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return !prevented;
  }
  eventsSent(event: string): unknown[] {
    return this.sent.filter((s) => s.channel === `trayshare:event:${event}`).map((s) => s.payload);
  }
}

export class FakeWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  destroyed = false;
  progress: { value: number; mode?: string } = { value: -1 };
  constructor(
    readonly options: BrowserWindowConstructorOptions,
    private readonly autoLoad: boolean,
  ) {
    super();
  }
  async loadFile(path: string, options?: { hash?: string }) {
    this.webContents.url = `file://${path}${options?.hash ? `#${options.hash}` : ''}`;
    this.afterLoad();
  }
  async loadURL(url: string) {
    this.webContents.url = url;
    this.afterLoad();
  }
  private afterLoad() {
    this.emit('ready-to-show');
    if (this.autoLoad) this.webContents.finishLoad();
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isVisible() {
    return this.visible;
  }
  isDestroyed() {
    return this.destroyed;
  }
  setProgressBar(value: number, options?: { mode?: string }) {
    this.progress = { value, mode: options?.mode };
  }
  close() {
    this.destroyed = true;
    this.emit('closed');
  }
  /** The view the page was opened on (the fragment). */
  get hash(): string {
    return new URL(this.webContents.url).hash.slice(1);
  }
}

export class FakeWindowFactory {
  readonly created: FakeWindow[] = [];
  /** When false, pages stay "loading" until the test calls finishLoad(). */
  autoLoad = true;
  create = (options: BrowserWindowConstructorOptions): WindowLike => {
    const window = new FakeWindow(options, this.autoLoad);
    this.created.push(window);
    return window as unknown as WindowLike;
  };
  open(): FakeWindow[] {
    return this.created.filter((w) => !w.destroyed);
  }
  byHash(hash: string): FakeWindow | undefined {
    return this.open().find((w) => w.hash === hash);
  }
}

export type Menu = MenuItemConstructorOptions[];

export class FakeTray extends EventEmitter implements TrayLike<string, Menu> {
  toolTip = '';
  title = '';
  menu: Menu | null = null;
  /** Every tooltip and every menu the app set, in order. */
  readonly toolTips: string[] = [];
  readonly menusSet: Menu[] = [];
  destroyed = false;
  constructor(public image: string) {
    super();
  }
  setImage(image: string) {
    this.image = image;
  }
  setToolTip(toolTip: string) {
    this.toolTip = toolTip;
    this.toolTips.push(toolTip);
  }
  setTitle(title: string) {
    this.title = title;
  }
  setContextMenu(menu: Menu | null) {
    this.menu = menu;
    if (menu) this.menusSet.push(menu);
  }
  destroy() {
    this.destroyed = true;
  }
  /** The menu item with this id, searched through submenus. */
  item(id: string): MenuItemConstructorOptions {
    const find = (items: Menu): MenuItemConstructorOptions | undefined => {
      for (const i of items) {
        if (i.id === id) return i;
        const sub = Array.isArray(i.submenu) ? find(i.submenu as Menu) : undefined;
        if (sub) return sub;
      }
      return undefined;
    };
    const found = this.menu ? find(this.menu) : undefined;
    if (!found) throw new Error(`no menu item ${id}`);
    return found;
  }
  /** Clicks a menu item as the person would. */
  click(id: string) {
    const item = this.item(id);
    if (item.enabled === false) throw new Error(`menu item ${id} is disabled`);
    (item.click as () => void)();
  }
  dropFiles(paths: string[]) {
    this.emit('drop-files', { preventDefault() {} }, paths);
  }
}

export class FakeNotification extends EventEmitter implements NotificationLike {
  shown = false;
  constructor(readonly options: { title: string; body: string; toastXml?: string }) {
    super();
  }
  show() {
    this.shown = true;
  }
  click() {
    this.emit('click');
  }
  /** The OS refused it, as an unsigned macOS build or Windows' Focus settings do. */
  fail(error: string) {
    this.emit('failed', { preventDefault() {} }, error);
  }
}

export class FakeGlobalShortcut implements GlobalShortcutLike {
  readonly registered = new Map<string, () => void>();
  /** Combinations another app holds (register returns false for them). */
  readonly taken = new Set<string>();
  register(accelerator: string, callback: () => void): boolean {
    if (!/^[A-Za-z0-9+]+$/.test(accelerator))
      throw new Error(`Error processing argument: ${accelerator}`);
    if (this.taken.has(accelerator) || this.registered.has(accelerator)) return false;
    this.registered.set(accelerator, callback);
    return true;
  }
  unregister(accelerator: string): void {
    this.registered.delete(accelerator);
  }
  press(accelerator: string) {
    const cb = this.registered.get(accelerator);
    if (!cb) throw new Error(`${accelerator} is not registered`);
    cb();
  }
}

export class FakeClipboard implements ClipboardLike {
  text = '';
  /** MIME type → content (text, or bytes such as an image/png), as clipboard.read() would offer it. */
  formats = new Map<string, string | Uint8Array<ArrayBuffer>>();
  readonly written: string[] = [];
  async has(type: string) {
    return this.formats.has(type);
  }
  async read(): Promise<ClipboardItemLike[]> {
    const formats = this.formats;
    return [
      {
        types: [...formats.keys()],
        getType: async (type: string) => new Blob([formats.get(type) ?? '']),
      },
    ];
  }
  async readText() {
    return this.text;
  }
  async writeText(text: string) {
    this.written.push(text);
  }
}

/** An IPC event from a frame of a window (the page at its current URL unless told otherwise). */
export function eventFrom(
  window: FakeWindow,
  frame: { url?: string; parent?: unknown } = {},
): InvokeEvent {
  return {
    sender: { id: window.webContents.id },
    senderFrame: { url: frame.url ?? window.webContents.url, parent: frame.parent ?? null },
  };
}
