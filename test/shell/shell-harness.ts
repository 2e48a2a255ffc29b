// The shell as it runs in the app, minus the Electron binary: the real core app service (on a
// temp dir, uploading over Node's transport to the reference service on 127.0.0.1) and the
// real shell modules, with fakes of the Electron APIs around them.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenDialogOptions } from 'electron';
import type { AppService, PreferencesPatch } from '../../main/core/api';
import type { Capturer } from '../../main/core/capture/take-capture';
import { diagnosticsText } from '../../main/core/log/about';
import { type FileLog, openFileLog } from '../../main/core/log/file-log';
import { createLoggedAppService } from '../../main/core/log/logged-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type DesktopApp, startDesktopApp } from '../../main/electron/desktop-app';
import type { RendererLocation } from '../../main/electron/renderer-location';
import type { DesktopUpdatesDeps } from '../../main/electron/updates-wiring';
import { createWindows } from '../../main/electron/windows';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { type DemoIds, seedDemo } from '../harness/seed';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import {
  defaultTestConfig,
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../reference-service/server';
import {
  eventFrom,
  FakeClipboard,
  FakeGlobalShortcut,
  FakeIpcMain,
  FakeNotification,
  FakeTray,
  type FakeWindow,
  FakeWindowFactory,
  type Menu,
} from './fake-electron';

export const RENDERER: RendererLocation = {
  kind: 'file',
  indexPath: '/opt/Trayshare/resources/app.asar/out/renderer/index.html',
};
export const PRELOAD = '/opt/Trayshare/resources/app.asar/out/preload/index.cjs';

export interface HarnessOptions {
  platform?: NodeJS.Platform;
  /** Seed a workspace with the reference service's token and two presets (default true). */
  seed?: boolean;
  preferences?: PreferencesPatch;
  /** Shortcuts another app holds. */
  taken?: string[];
  keychainProblem?: string | null;
  /** How the build updates (index.ts passes electron-updater's); default: it does not. */
  updates?: DesktopUpdatesDeps;
  launchedAtLogin?: boolean;
  fileManagerIntegration?: boolean;
  /** Notifications the OS refuses to show ('failed'), with this error. */
  notificationsFail?: string;
  /** A Wayland desktop, where no window can stay on top (windows.ts keepsOnTop). */
  noWindowOnTop?: boolean;
  /** A Wayland desktop, whose portal approves global shortcuts itself. */
  shortcutNeedsApproval?: boolean;
  desktopNotes?: string[];
  /**
   * Sign in with Slack: the loopback port (the service's Slack app lists its redirect) and
   * what the person's browser does with the consent page.
   */
  signIn?: {
    port: number;
    openBrowser(url: string): Promise<void>;
    oauth?: Partial<ServiceConfig['oauth']>;
  };
  /** What shell.openPath answers for the logs folder ('' : it opened). */
  openPathAnswer?: string;
  /** The capture tool (index.ts passes the OS's; tests the stand-in portal's client). */
  capturer?: Capturer;
  /** macOS's Screen Recording state, as systemPreferences.getMediaAccessStatus('screen'). */
  screenAccess?: string;
}

export interface ShellHarness {
  dir: string;
  reference: ReferenceService;
  service: AppService;
  shell: DesktopApp;
  demo: DemoIds | undefined;
  ipc: FakeIpcMain;
  windows: FakeWindowFactory;
  tray: FakeTray;
  notifications: FakeNotification[];
  shortcut: FakeGlobalShortcut;
  clipboard: FakeClipboard;
  logs: string[];
  opened: string[];
  /** The app's log file, in the temp dir. */
  appLog: FileLog;
  /** Folders shell.openPath was asked to show. */
  openedPaths: string[];
  loginItem: boolean[];
  integration: boolean[];
  quits: number;
  /** What the person saw come forward, in order: 'app focused', 'file picker'. */
  foreground: string[];
  /**
   * Windows calling Notification.handleActivation's callback: a click from Action Center
   * after the object is gone, or the click that started the app.
   */
  activateNotification(details: { type: string; arguments: string }): void;
  /** Paths the next file picker returns (none left: the person cancelled). */
  pick(paths: string[]): void;
  /** Calls a contract method from a window's page, as the preload would. */
  call(window: FakeWindow, method: string, ...args: unknown[]): Promise<unknown>;
  /** Writes files into the temp dir and returns their paths. */
  files(...names: string[]): Promise<string[]>;
  close(): Promise<void>;
}

export async function startShellHarness(options: HarnessOptions = {}): Promise<ShellHarness> {
  const platform = options.platform ?? 'linux';
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-shell-'));
  const signIn = options.signIn;
  const reference = await startReferenceService({
    dataDir: join(dir, 'service'),
    ...(signIn
      ? {
          config: {
            oauth: {
              ...defaultTestConfig.oauth,
              apps: [
                { clientId: DEFAULT_CLIENT_ID, redirectUrls: [slackRedirectUri(signIn.port)] },
              ],
              ...signIn.oauth,
            },
          },
        }
      : {}),
  });
  const appLog = openFileLog({ dir: join(dir, 'logs'), name: 'trayshare.log' });
  const service = await createLoggedAppService(
    {
      dataDir: join(dir, 'app'),
      secrets: createMemorySecretStore(),
      transport: createNodeTransport(),
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      ...(signIn ? { signInPort: signIn.port, openBrowser: signIn.openBrowser } : {}),
    },
    appLog,
  );
  const demo = options.seed === false ? undefined : await seedDemo(service, reference.url);
  if (options.preferences) await service.setPreferences(options.preferences);

  const ipc = new FakeIpcMain();
  const windows = new FakeWindowFactory();
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];
  const shortcut = new FakeGlobalShortcut();
  for (const t of options.taken ?? []) shortcut.taken.add(t);
  const clipboard = new FakeClipboard();
  const logs: string[] = [];
  const opened: string[] = [];
  const openedPaths: string[] = [];
  const loginItem: boolean[] = [];
  const integration: boolean[] = [];
  const picks: string[][] = [];
  const foreground: string[] = [];
  let activation: ((details: { type: string; arguments: string }) => void) | undefined;
  let quits = 0;
  const log = (line: string) => logs.push(line);

  const shell = await startDesktopApp<string, Menu>({
    platform,
    service,
    ipcMain: ipc,
    windows: createWindows({
      createWindow: windows.create,
      renderer: RENDERER,
      preloadPath: PRELOAD,
      openExternal: (url) => opened.push(url),
      log,
      platform,
      keepsOnTop: !options.noWindowOnTop,
    }),
    renderer: RENDERER,
    tray: {
      createTray: (image) => {
        const tray = new FakeTray(image);
        trays.push(tray);
        return tray;
      },
      buildMenu: (template) => template,
      loadImage: (path) => path,
      iconDir: '/icons',
    },
    notifications: {
      create: (opts) => {
        const n = new FakeNotification(opts);
        notifications.push(n);
        const refusal = options.notificationsFail;
        if (refusal !== undefined) n.show = () => n.fail(refusal);
        return n;
      },
      isSupported: () => true,
      // As index.ts: Windows only.
      ...(platform === 'win32'
        ? {
            handleActivation: (callback: typeof activation & {}) => {
              activation = callback;
            },
          }
        : {}),
      gatherMs: 1,
    },
    globalShortcut: shortcut,
    clipboard,
    showOpenDialog: async (_opts: OpenDialogOptions) => {
      foreground.push('file picker');
      const next = picks.shift();
      return next ? { canceled: false, filePaths: next } : { canceled: true, filePaths: [] };
    },
    focusApp: () => {
      foreground.push('app focused');
    },
    openExternal: async (url) => {
      opened.push(url);
    },
    setLaunchAtLogin: async (enabled) => {
      loginItem.push(enabled);
    },
    ...(options.fileManagerIntegration
      ? {
          setFileManagerIntegration: async (enabled: boolean) => {
            integration.push(enabled);
          },
        }
      : {}),
    checkKeychain: async () => options.keychainProblem ?? null,
    // As index.ts, with shell.openPath recorded.
    logs: {
      dir: appLog.dir,
      openPath: async (path) => {
        openedPaths.push(path);
        return options.openPathAnswer ?? '';
      },
      diagnostics: () => diagnosticsText({ service, log: appLog }),
    },
    // Most tests begin with the app running in the tray and no window, as after a login start
    // (on Linux any other start opens the window: test/shell/desktop-start.test.ts).
    launchedAtLogin: options.launchedAtLogin ?? true,
    shortcutNeedsApproval: options.shortcutNeedsApproval ?? false,
    desktopNotes: options.desktopNotes ?? [],
    keepsDropWindowOnTop: !options.noWindowOnTop,
    ...(options.updates ? { updates: options.updates } : {}),
    ...(options.capturer ? { capturer: options.capturer } : {}),
    ...(options.screenAccess ? { screenAccess: () => options.screenAccess ?? '' } : {}),
    quit: () => {
      quits++;
    },
    log,
  });

  const harness: ShellHarness = {
    dir,
    reference,
    service,
    shell,
    demo,
    ipc,
    windows,
    tray: trays[0]!,
    notifications,
    shortcut,
    clipboard,
    logs,
    opened,
    appLog,
    openedPaths,
    loginItem,
    integration,
    get quits() {
      return quits;
    },
    foreground,
    activateNotification(details) {
      if (!activation) throw new Error('no handleActivation callback (Windows only)');
      activation(details);
    },
    pick: (paths) => picks.push(paths),
    call: (window, method, ...args) =>
      ipc.invoke(eventFrom(window), `trayshare:${method}`, ...args),
    async files(...names) {
      const folder = join(dir, 'files');
      await mkdir(folder, { recursive: true });
      const paths: string[] = [];
      for (const name of names) {
        const path = join(folder, name);
        await writeFile(path, `contents of ${name}\n`);
        paths.push(path);
      }
      return paths;
    },
    async close() {
      shell.dispose();
      await service.close();
      await reference.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
