// The main process entry: the only module that imports Electron's values. It takes the
// single-instance lock, collects handed-over paths, builds the app service and starts the
// desktop app (desktop-app.ts) with the real Electron APIs. Everything it wires is tested with
// fakes elsewhere.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  desktopCapturer,
  dialog,
  shell as electronShell,
  globalShortcut,
  ipcMain,
  Menu,
  type NativeImage,
  Notification,
  nativeImage,
  net,
  screen,
  session,
  systemPreferences,
  Tray,
} from 'electron';
import ElectronStore from 'electron-store';
import electronUpdater from 'electron-updater';
import type { AppService } from '../core/api';
import { xdgConfigHome } from '../core/autostart/xdg-autostart';
import { capturerFor } from '../core/capture/capturers';
import { createFileManagerIntegration, launcherPath } from '../core/integration/integration';
import { diagnosticsText } from '../core/log/about';
import type { FileLog } from '../core/log/file-log';
import { loggedProxyResolver } from '../core/log/logged-parts';
import { createLoggedAppService } from '../core/log/logged-service';
import { keychainProblemAtStart } from '../core/secrets/keychain-check';
import { createKeychainStore } from '../core/secrets/keychain-store';
import type { SecretStore } from '../core/secrets/secret-store';
import type { StoreFactory } from '../core/settings/settings-service';
import { installMethod } from '../core/updates/install-method';
import { updateSource } from '../core/updates/update-source';
import { createNodeTransport } from '../core/upload/node-transport';
import { createProxyRoutingTransport } from '../core/upload/proxy-routing-transport';
import { errorMessage } from '../portable/error-message';
import { SETUP_SCHEME } from '../portable/setup-link';
import { applyAppIdentity } from './app-identity';
import { appLogLines, openAppLog } from './app-log';
import { applicationMenuTemplate } from './app-menu';
import { installAppImageIdentity } from './appimage-identity';
import { overlayCapturer } from './capture-overlay';
import { type DesktopApp, type DesktopAppDeps, startDesktopApp } from './desktop-app';
import { desktopNotes, isWayland } from './desktop-notes';
import { type HandOff, listenForHandOff } from './hand-off';
import { AUTOSTART_FLAG, applyLaunchAtLogin } from './login-item';
import { createNetTransport } from './net-transport';
import { rendererLocation } from './renderer-location';
import { hardenSession } from './session-security';
import type { HandOffData } from './share-argv';
import { checkExternalUrl, checkSignInUrl } from './shell-api';
import { installTestHooks } from './test-hooks';
import type { DesktopUpdatesDeps } from './updates-wiring';
import { createWindows, guardWebContents } from './windows';

/** Opened first thing in main(), once the app's identity (and so its folders) is set. */
let appLog: FileLog | undefined;

/** Every app log line: redacted before any sink, stdout's copy included (app-log.ts). */
const appLines = appLogLines(() => appLog);
const log = appLines.info;

const electronStoreFactory: StoreFactory = (options) =>
  new ElectronStore<Record<string, unknown>>(options);

function openExternal(url: string): Promise<void> {
  const checked = checkExternalUrl(url);
  if (!checked.ok) {
    log(`Refused to open a link: ${checked.error}`);
    return Promise.resolve();
  }
  return electronShell.openExternal(checked.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (https only, checked above)
}

// Sign in with Slack's consent page, in the person's browser: https, or http on this machine
// (a local Slack-style service). Throws when it cannot, so the sign-in says so.
async function openBrowser(url: string): Promise<void> {
  const checked = checkSignInUrl(url);
  if (!checked.ok) throw new Error(checked.error);
  await electronShell.openExternal(checked.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (https, or http to a loopback host only, checked above)
}

/**
 * Makes the installed app the handler of trayshare:// set-up links. A development run does not
 * take them over, as it keeps its own name and data folder (app-identity.ts): it would repoint
 * the installed app's links at this checkout. It still reads a link it is started with.
 */
function registerSetupScheme(): void {
  if (!app.isPackaged) return;
  const registered = app.setAsDefaultProtocolClient(SETUP_SCHEME); // eng-disable PROTOCOL_HANDLER_JS_CHECK (links checked whole in main/core/setup-link-check.ts)
  if (!registered) log('The desktop did not take Trayshare as the handler of trayshare: links.');
}

/** The program the OS should start: an AppImage runs from $APPIMAGE, not its mount point. */
function launchCommand(): string[] {
  const program = launcherPath(process.execPath, process.env);
  return app.isPackaged ? [program] : [program, app.getAppPath()];
}

/** Installs (or repairs) or removes "Share with Trayshare"; throws what could not be done. */
function fileManagerIntegration(
  icon: string | undefined,
): ((enabled: boolean) => Promise<void>) | undefined {
  // In development the executable is Electron itself: entries would start it without the app.
  if (!app.isPackaged) return undefined;
  const integration = createFileManagerIntegration({
    platform: process.platform,
    // An AppImage's entries point at its stable icon copy (appimage-identity.ts).
    app: { exe: launcherPath(process.execPath, process.env), ...(icon ? { icon } : {}) },
    home: app.getPath('home'),
    env: process.env,
    writeShortcut: (path, details) => electronShell.writeShortcutLink(path, 'create', details),
    readShortcut: (path) => electronShell.readShortcutLink(path),
  });
  return (enabled) => integration.setEnabled(enabled);
}

async function showStartError(title: string, error: unknown): Promise<void> {
  const detail = errorMessage(error);
  log(`${title}: ${detail}`);
  await dialog.showMessageBox({
    type: 'error',
    title: 'Trayshare',
    message: title,
    detail,
    buttons: ['Quit'],
  });
}

/** An AppImage's desktop entry and icon copy, so the desktop knows the app (Linux only). */
async function appImageIdentity(): Promise<
  Awaited<ReturnType<typeof installAppImageIdentity>> | undefined
> {
  const appImage =
    process.platform === 'linux' && app.isPackaged && process.env.APPIMAGE
      ? await installAppImageIdentity({
          appImage: process.env.APPIMAGE,
          iconSource: join(process.resourcesPath, 'icon.png'),
          home: app.getPath('home'),
          env: process.env,
        })
      : undefined;
  if (appImage?.state === 'failed') log(`The AppImage's desktop entry: ${appImage.error}`);
  return appImage;
}

/** The app service on the user-data folder; null after telling the person it could not open. */
async function openService(secrets: SecretStore, fileLog: FileLog): Promise<AppService | null> {
  try {
    return await createLoggedAppService(
      {
        dataDir: app.getPath('userData'),
        secrets,
        // DIRECT requests use Node's stack (exact Content-Length); proxied ones Chromium's `net`.
        transport: createProxyRoutingTransport({
          resolveProxy: loggedProxyResolver(
            (url) => session.defaultSession.resolveProxy(url),
            fileLog,
          ),
          direct: createNodeTransport({ client: 'app' }),
          proxied: createNetTransport(net),
        }),
        storeFactory: electronStoreFactory,
        // The CLI may change the settings while the app runs. A share's completion learns from
        // this change event that the CLI removed its workspace (and fails its files as removed,
        // as when it is removed in the window) instead of reading the file again.
        watchSettings: true,
        openBrowser,
      },
      fileLog,
    );
  } catch (error) {
    await showStartError('Trayshare could not open its settings and queue', error);
    return null;
  }
}

/** resources/package-type: electron-builder writes it into deb, rpm and pacman packages only. */
function packageType(): string | null {
  if (!app.isPackaged) return null;
  try {
    return readFileSync(join(process.resourcesPath, 'package-type'), 'utf8');
  } catch {
    return null;
  }
}

/** How this build updates; electron-updater's updater is made only when it updates itself. */
function updates(): DesktopUpdatesDeps {
  return {
    source: updateSource({
      platform: process.platform,
      isPackaged: app.isPackaged,
      packageType: packageType(),
      env: process.env,
      install: installMethod({
        platform: process.platform,
        exePath: app.getPath('exe'),
        home: app.getPath('home'),
        env: process.env,
        exists: existsSync,
      }),
    }),
    // The CommonJS module's own getter: NsisUpdater, MacUpdater or AppImageUpdater for this OS,
    // reading resources/app-update.yml (electron-builder writes it from `publish`).
    createUpdater: () => electronUpdater.autoUpdater,
    // One line each for checks and failures, never a feed's credentials (it has none); a failed
    // check is a warning in the log file and no dialog (docs/updates.md: failures stay quiet).
    log: {
      info: log,
      // A warning in the log file; the console keeps stdout, as a quiet failure is no crash (the
      // boot checks read stderr's "Error" as one).
      warn: appLines.warn,
    },
  };
}

/** The tray's Electron factories; test/e2e's hooks get the tray and its menu. */
function trayDeps(
  appPath: string,
  testHooks: ReturnType<typeof installTestHooks<Tray, Menu>>,
): DesktopAppDeps<NativeImage, Menu>['tray'] {
  return {
    createTray: (image) => {
      const tray = new Tray(image);
      if (testHooks) testHooks.tray = tray;
      return tray;
    },
    buildMenu: (template) => {
      const menu = Menu.buildFromTemplate(template);
      if (testHooks) testHooks.menu = menu;
      return menu;
    },
    loadImage: (path) => nativeImage.createFromPath(path),
    iconDir: app.isPackaged ? join(process.resourcesPath, 'tray') : join(appPath, 'build', 'tray'),
  };
}

function notificationDeps(): DesktopAppDeps<NativeImage, Menu>['notifications'] {
  return {
    create: (options) => new Notification(options),
    isSupported: () => Notification.isSupported(),
    // Windows only (electron.d.ts: @platform win32): clicks from Action Center once the
    // object is gone, and the click that started the app.
    ...(process.platform === 'win32'
      ? { handleActivation: (callback) => Notification.handleActivation(callback) }
      : {}),
  };
}

/** Applies launch at login; unpackaged there is nothing the OS could start. */
function launchAtLogin(icon: string | undefined): (enabled: boolean) => Promise<void> {
  return async (enabled) => {
    // Unpackaged, the program is Electron itself: a login item would start a bare Electron.
    if (!app.isPackaged) {
      if (enabled) {
        throw new Error(
          'Launch at login works in the installed app only: `npm start` runs Electron from this checkout.',
        );
      }
      return;
    }
    await applyLaunchAtLogin(
      {
        platform: process.platform,
        app,
        linuxEntry: () => ({
          configHome: xdgConfigHome(),
          id: 'trayshare',
          name: 'Trayshare',
          comment: 'Share files to your team from the tray',
          icon: icon ?? 'trayshare',
          command: [...launchCommand(), AUTOSTART_FLAG],
        }),
      },
      enabled,
    );
  };
}

/** The app's windows, each with hardenedWebPreferences() (windows.ts; see SECURITY.md). */
function mainWindows(
  appPath: string,
  renderer: ReturnType<typeof rendererLocation>,
  wayland: boolean,
): ReturnType<typeof createWindows> {
  return createWindows({
    // Options from windows.ts: hardenedWebPreferences() on every window (see SECURITY.md).
    createWindow: (options) => new BrowserWindow(options), // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK
    renderer,
    preloadPath: join(appPath, 'out', 'preload', 'index.cjs'),
    openExternal: (url) => void openExternal(url),
    log,
    platform: process.platform,
    // Linux window managers take the window's icon from here (Windows from the .exe).
    iconPath: app.isPackaged
      ? join(process.resourcesPath, 'icon.png')
      : join(appPath, 'build', 'icon.png'),
    keepsOnTop: !wayland,
  });
}

async function start(
  handOff: HandOff,
  fileLog: FileLog,
): Promise<{ desktop: DesktopApp; service: AppService } | null> {
  const appPath = app.getAppPath();
  const renderer = rendererLocation({
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    indexPath: join(appPath, 'out', 'renderer', 'index.html'),
  });
  hardenSession(session.defaultSession, renderer, log);

  // Before the shortcut is bound: the Wayland portal looks for the desktop entry.
  const appImage = await appImageIdentity();

  const secrets = createKeychainStore();
  const service = await openService(secrets, fileLog);
  if (!service) return null;

  // Electron's own choice of display server, which a --ozone-platform switch overrides.
  const wayland =
    process.platform === 'linux' &&
    isWayland(process.env, app.commandLine.getSwitchValue('ozone-platform'));

  const windows = mainWindows(appPath, renderer, wayland);

  // test/e2e only (TRAYSHARE_TEST_HOOKS=1, unpackaged): the tray and its menu, for clicking.
  const testHooks = installTestHooks<Tray, Menu>(process.env, app.isPackaged);

  const launchedAtLogin =
    process.argv.includes(AUTOSTART_FLAG) ||
    (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);

  const desktop = await startDesktopApp<NativeImage, Menu>({
    platform: process.platform,
    service,
    ipcMain,
    windows,
    renderer,
    tray: trayDeps(appPath, testHooks),
    notifications: notificationDeps(),
    globalShortcut,
    clipboard,
    showOpenDialog: (options) => dialog.showOpenDialog(options),
    // Only for a picker the person asked for from the tray or the shortcut.
    focusApp: () => app.focus({ steal: true }),
    openExternal,
    setLaunchAtLogin: launchAtLogin(appImage?.icon),
    shortcutNeedsApproval: wayland,
    keepsDropWindowOnTop: !wayland,
    desktopNotes: desktopNotes({
      platform: process.platform,
      env: process.env,
      isPackaged: app.isPackaged,
      userData: app.getPath('userData'),
      ozonePlatform: app.commandLine.getSwitchValue('ozone-platform'),
      ...(appImage ? { appImage } : {}),
    }),
    setFileManagerIntegration: fileManagerIntegration(appImage?.icon),
    checkKeychain: () => keychainProblemAtStart(service, secrets, log),
    logs: {
      dir: fileLog.dir,
      openPath: (path) => electronShell.openPath(path),
      diagnostics: () => diagnosticsText({ service, log: fileLog }),
    },
    launchedAtLogin,
    // Every platform has one in the app: Windows' is the overlay handed in here.
    capturer:
      capturerFor(process.platform, {
        overlay: () =>
          overlayCapturer(
            { BrowserWindow, desktopCapturer, ipcMain, screen },
            renderer,
            appPath,
            log,
          ),
      }) ?? undefined,
    screenAccess: () => systemPreferences.getMediaAccessStatus('screen'),
    updates: updates(),
    quit: () => app.quit(),
    log,
  });
  handOff.deliverTo((paths) => desktop.requestShare(paths));
  handOff.deliverLinksTo((link) => desktop.openSetupLink(link));
  registerSetupScheme();
  return { desktop, service };
}

function main(): void {
  const opened = openAppLog(app.getPath('logs'));
  appLog = opened;
  let running: { desktop: DesktopApp; service: AppService } | null = null;
  const handOff = listenForHandOff(app, {
    argv: process.argv,
    cwd: process.cwd(),
    onActivate: () => running?.desktop.activate(),
  });

  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => running?.desktop.activate());
  // Every web contents, whoever creates it, gets the navigation and window-open guards.
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents, (url) => void openExternal(url), log);
  });

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed || !running) return;
    event.preventDefault();
    const { desktop, service } = running;
    running = null;
    desktop.dispose();
    // The queue journal is closed cleanly; unsent items go again on next start.
    void service
      .close()
      .catch((error: unknown) => log(`Closing the queue failed: ${String(error)}`))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });

  process.on('unhandledRejection', (reason) => {
    log(`Unhandled rejection: ${errorMessage(reason)}`);
  });

  app
    .whenReady()
    .then(() => {
      // Before any window: Windows and Linux windows get no menu bar, macOS a minimal one.
      const template = applicationMenuTemplate(process.platform);
      Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
      return start(handOff, opened);
    })
    .then((started) => {
      running = started;
      if (!started) app.quit();
    })
    .catch(async (error: unknown) => {
      await showStartError('Trayshare could not start', error);
      app.quit();
    });
}

// First of all: the AppUserModelID on Windows, and an unpackaged run's own data folder (the
// single-instance lock lives there, so this must precede requestSingleInstanceLock).
applyAppIdentity(app, process.platform, join);

const handOffData: HandOffData = { argv: process.argv, cwd: process.cwd() };
if (app.requestSingleInstanceLock(handOffData)) {
  main();
} else {
  // The running instance gets our paths through `second-instance`.
  app.quit();
}
