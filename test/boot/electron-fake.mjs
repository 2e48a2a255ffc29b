// A recording stand-in for the `electron` module, loaded in place of the real one by
// register.mjs when out/main/index.js boots under plain Node (the Electron binary cannot run
// on these machines). Every call into it is journaled, with whether `ready` had fired, to the
// file named by TRAYSHARE_BOOT_JOURNAL; paths the app hands to Electron are checked to exist.
// After `ready` and a settling time it quits the app the way the tray's Quit does.
import { EventEmitter } from 'node:events';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const journal = process.env.TRAYSHARE_BOOT_JOURNAL;
const dataRoot = process.env.TRAYSHARE_BOOT_DATA;
const settleMs = Number(process.env.TRAYSHARE_BOOT_SETTLE_MS ?? 1500);
let ready = false;

function plain(value, depth = 0) {
  if (typeof value === 'function') return '[function]';
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '[…]';
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  if (value.__fake) return value.__fake;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = plain(v, depth + 1);
  return out;
}

function record(call, args = [], extra = {}) {
  appendFileSync(
    journal,
    `${JSON.stringify({ call, args: args.map((a) => plain(a)), beforeReady: !ready, ...extra })}\n`,
  );
}

/** A path handed to Electron: recorded with whether it exists. */
function recordPath(call, path, args = [path]) {
  record(call, args, { path, exists: typeof path === 'string' && existsSync(path) });
}

/** Methods not modelled here are recorded and answer undefined, so the journal shows them. */
function recorder(name, impl) {
  return new Proxy(impl, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop === 'symbol') return Reflect.get(target, prop, receiver);
      return (...args) => record(`${name}.${String(prop)}`, args);
    },
  });
}

const appEvents = new EventEmitter();
let readyResolve;
const readyPromise = new Promise((resolve) => {
  readyResolve = resolve;
});
let quitting = false;

export const app = recorder('app', {
  isPackaged: process.env.TRAYSHARE_BOOT_PACKAGED === '1',
  commandLine: {
    hasSwitch: (name) => {
      record('app.commandLine.hasSwitch', [name]);
      return false;
    },
    appendSwitch: (...args) => record('app.commandLine.appendSwitch', args),
    getSwitchValue: (name) => {
      record('app.commandLine.getSwitchValue', [name]);
      return '';
    },
  },
  on(event, listener) {
    record('app.on', [event]);
    appEvents.on(event, listener);
    return this;
  },
  once(event, listener) {
    record('app.once', [event]);
    appEvents.once(event, listener);
    return this;
  },
  whenReady() {
    record('app.whenReady');
    return readyPromise;
  },
  isReady: () => ready,
  requestSingleInstanceLock(data) {
    record('app.requestSingleInstanceLock', [data]);
    return true;
  },
  setAppUserModelId(id) {
    record('app.setAppUserModelId', [id]);
  },
  getPath(name) {
    record('app.getPath', [name]);
    const dir = join(dataRoot, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  },
  setPath(name, path) {
    record('app.setPath', [name, path]);
  },
  getAppPath() {
    record('app.getAppPath');
    return process.env.TRAYSHARE_BOOT_APP_PATH;
  },
  getVersion: () => '0.0.0-boot',
  getName: () => 'Trayshare',
  getLoginItemSettings() {
    record('app.getLoginItemSettings');
    return { openAtLogin: false, wasOpenedAtLogin: false };
  },
  quit() {
    record('app.quit');
    if (quitting) return;
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    appEvents.emit('will-quit', event);
    if (event.defaultPrevented) return;
    quitting = true;
    appEvents.emit('quit');
    record('exit');
    setImmediate(() => process.exit(0));
  },
});

class FakeWebContents extends EventEmitter {
  static next = 1;
  id = FakeWebContents.next++;
  setWindowOpenHandler() {
    record('webContents.setWindowOpenHandler');
  }
  send(channel) {
    record('webContents.send', [channel]);
  }
  isLoading() {
    return false;
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    record('new BrowserWindow', [options]);
    if (options?.webPreferences?.preload) recordPath('preload', options.webPreferences.preload);
    if (options?.icon) recordPath('window icon', options.icon);
    this.webContents = new FakeWebContents();
    this.__fake = 'BrowserWindow';
    appEvents.emit('web-contents-created', {}, this.webContents);
  }
  loadFile(path, options) {
    recordPath('BrowserWindow.loadFile', path, [path, options]);
    setImmediate(() => {
      this.webContents.emit('did-finish-load');
      this.emit('ready-to-show');
    });
    return Promise.resolve();
  }
  loadURL(url) {
    record('BrowserWindow.loadURL', [url]);
    return Promise.resolve();
  }
  show() {
    record('BrowserWindow.show');
  }
  hide() {}
  focus() {}
  restore() {}
  close() {}
  destroy() {}
  isMinimized() {
    return false;
  }
  isVisible() {
    return true;
  }
  isDestroyed() {
    return false;
  }
  setProgressBar() {}
  setAlwaysOnTop() {}
  setVisibleOnAllWorkspaces() {}
  setMenuBarVisibility() {}
  static getAllWindows() {
    return [];
  }
}

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    record('new Tray', [image]);
    this.__fake = 'Tray';
  }
  setImage(image) {
    record('Tray.setImage', [image]);
  }
  setToolTip() {}
  setTitle() {}
  setContextMenu(menu) {
    record('Tray.setContextMenu', [menu]);
  }
  setIgnoreDoubleClickEvents() {}
  destroy() {
    record('Tray.destroy');
  }
  isDestroyed() {
    return false;
  }
}

export const Menu = recorder('Menu', {
  buildFromTemplate(template) {
    record('Menu.buildFromTemplate');
    return { __fake: { menu: plain(template) } };
  },
  setApplicationMenu(menu) {
    record('Menu.setApplicationMenu', [menu]);
  },
});

export const nativeImage = recorder('nativeImage', {
  createFromPath(path) {
    recordPath('nativeImage.createFromPath', path);
    return {
      __fake: { image: path },
      isEmpty: () => !existsSync(path),
      setTemplateImage() {},
      resize() {
        return this;
      },
    };
  },
  createEmpty: () => ({ __fake: 'empty image', isEmpty: () => true, setTemplateImage() {} }),
});

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  static handleActivation() {
    record('Notification.handleActivation');
  }
  constructor(options) {
    super();
    record('new Notification', [{ title: options?.title }]);
  }
  show() {}
  close() {}
}

export const session = {
  defaultSession: recorder('session', {
    setPermissionRequestHandler: () => record('session.setPermissionRequestHandler'),
    setPermissionCheckHandler: () => record('session.setPermissionCheckHandler'),
    webRequest: { onHeadersReceived: () => record('session.webRequest.onHeadersReceived') },
    resolveProxy: async () => 'DIRECT',
  }),
  // electron-updater's requests go through a session of their own (electronHttpExecutor.js).
  fromPartition(partition) {
    record('session.fromPartition', [partition]);
    return { __fake: `session ${partition}` };
  },
};

export const ipcMain = recorder('ipcMain', {
  handle(channel) {
    record('ipcMain.handle', [channel]);
  },
  removeHandler() {},
  on() {},
  off() {},
});

export const globalShortcut = recorder('globalShortcut', {
  register(accelerator) {
    record('globalShortcut.register', [accelerator]);
    return true;
  },
  unregister() {},
  unregisterAll() {},
});

export const clipboard = recorder('clipboard', {
  readText: () => '',
  readBuffer: () => Buffer.alloc(0),
  availableFormats: () => [],
  has: () => false,
  read: () => '',
  readImage: () => ({ isEmpty: () => true }),
  writeText() {},
});

export const dialog = recorder('dialog', {
  async showMessageBox(options) {
    record('dialog.showMessageBox', [{ message: options?.message, detail: options?.detail }]);
    return { response: 0 };
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] };
  },
});

/** Squirrel's updater, which electron-updater's MacUpdater drives on macOS. */
export const autoUpdater = recorder('autoUpdater', new EventEmitter());

export const shell = recorder('shell', {});
/**
 * Requests made with Electron's net (electron-updater's): recorded with their address, then
 * failed as on a machine that is offline, which these are.
 */
export const net = recorder('net', {
  request(options) {
    const url =
      typeof options === 'string'
        ? options
        : `${options.protocol}//${options.hostname}${options.port ? `:${options.port}` : ''}${options.path}`;
    record('net.request', [url.replace(/\?.*$/, '')]);
    const request = new EventEmitter();
    request.setHeader = () => undefined;
    request.abort = () => undefined;
    request.end = () =>
      setImmediate(() => request.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED')));
    return request;
  },
});
export const protocol = recorder('protocol', {});
export const webUtils = recorder('webUtils', {});
/** macOS's Screen Recording permission, read before a capture (issue 35), never at start. */
export const systemPreferences = recorder('systemPreferences', {
  getMediaAccessStatus: () => 'granted',
});
/**
 * Windows' capture overlay (issue 35) reads the displays and their pictures when a capture is
 * asked for, never at start: both are recorded, so a boot that touched them would show.
 */
export const screen = recorder('screen', {
  getAllDisplays() {
    record('screen.getAllDisplays');
    return [{ id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1 }];
  },
  getCursorScreenPoint() {
    record('screen.getCursorScreenPoint');
    return { x: 0, y: 0 };
  },
});
export const desktopCapturer = recorder('desktopCapturer', {
  async getSources(options) {
    record('desktopCapturer.getSources', [options]);
    return [];
  },
});

const electron = {
  app,
  BrowserWindow,
  Tray,
  Menu,
  nativeImage,
  Notification,
  session,
  ipcMain,
  globalShortcut,
  clipboard,
  dialog,
  shell,
  net,
  protocol,
  webUtils,
  systemPreferences,
  screen,
  desktopCapturer,
  autoUpdater,
};
export default electron;

// `ready` comes once the main module's top level has run, as in Electron.
setTimeout(() => {
  ready = true;
  record('ready');
  appEvents.emit('ready');
  readyResolve();
  // Then the person quits from the tray.
  setTimeout(() => app.quit(), settleMs);
}, 50);
