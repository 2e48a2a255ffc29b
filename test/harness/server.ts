// The browser harness: serves the built renderer with window.trayshare bound, over HTTP on
// 127.0.0.1, to the real core app service running in this Node process, which uploads to a
// reference service it starts itself. Lets real Chromium drive the real UI and core together.

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { build as esbuild } from 'esbuild';
import type { AppService } from '../../main/core/api';
import type { CaptureSource } from '../../main/core/capture/capture-outcome';
import type { Capturer } from '../../main/core/capture/take-capture';
import { diagnosticsText } from '../../main/core/log/about';
import { type FileLog, openFileLog } from '../../main/core/log/file-log';
import { createLoggedAppService } from '../../main/core/log/logged-service';
import { parseSetupLink } from '../../main/core/setup-link-check';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { RetryPolicy } from '../../main/core/upload/retry';
import { createCapture } from '../../main/electron/capture-wiring';
import { shortcutRefusedMessage } from '../../main/electron/global-shortcut';
import { createUpdates, type Updates } from '../../main/electron/updates';
import type { DesktopUpdatesDeps } from '../../main/electron/updates-wiring';
import { errorMessage } from '../../main/portable/error-message';
import { isActiveState } from '../../main/portable/item-states';
import {
  type EventName,
  type MethodName,
  methodArgs,
  methodNames,
  type QueueItem,
  type SetupLink,
  type ShellApi,
  type TrayshareEvents,
} from '../../preload/contract';
import {
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../reference-service/server';
import { buildRenderer } from './build-renderer';
import { createMemorySecretStore } from './memory-secrets';
import { type DemoIds, seedDemo } from './seed';
import { throttleTransport } from './throttle';

export interface HarnessOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Serve this already-built renderer (e.g. out/renderer) instead of building one. */
  rendererDir?: string;
  /** Slow uploads to this many bytes a second (null: full speed); see setThrottle. */
  throttleBytesPerSecond?: number | null;
  /** Retry policy of the queue; tests pass small delays. */
  retry?: Partial<RetryPolicy>;
  /** How the build updates, as index.ts gives it (default: a development run, no updater). */
  updates?: DesktopUpdatesDeps;
  /**
   * Accelerators that count as taken by another app, as the shell's globalShortcut would
   * report. Default: CommandOrControl+Alt+T (a terminal on Ubuntu).
   */
  takenShortcuts?: string[];
  /** What the shell would say about this desktop (main/electron/desktop-notes.ts). */
  desktopNotes?: string[];
  /** The reference service's config, over its test defaults (e.g. a token's scopes). */
  serviceConfig?: Partial<ServiceConfig>;
  /**
   * The reference service's clock (default: the real one). A test that needs a token to run out
   * moves this clock on instead of waiting the lifetime out; the app keeps the real clock and
   * learns of it from the service's answers, as it would from Slack's.
   */
  serviceNow?: () => number;
  /** False for a Wayland desktop, where no window stays on top (default true). */
  keepsDropWindowOnTop?: boolean;
  /** The loopback port Sign in with Slack listens on (the service's app must list it). */
  signInPort?: number;
  /**
   * The renderer as a release build with this default Slack client ID (build/RELEASE.md);
   * default none, as a build without one. Not with rendererDir (that build is served as is).
   */
  slackClientId?: string;
}

/** What Sign in with Slack's openBrowser does here: a test opens the page in its own Chromium. */
type OpenBrowser = (url: string) => Promise<void>;

export interface Harness {
  url: string;
  /** The real core app service the page talks to (tests may also call it directly). */
  app: AppService;
  reference: ReferenceService;
  demo: DemoIds;
  /** Where the served renderer came from. */
  renderer: { dir: string; how: 'built' | 'cached' | 'reused' };
  /** Folder where files dropped in the browser are saved. */
  filesDir: string;
  /** Paths the next pickFiles() returns (each call takes one list; none left: cancelled). */
  pick(paths: string[]): void;
  /** Paths the next takePendingPaths() returns, as if handed over by the tray or file manager. */
  setPending(paths: string[]): void;
  /** The set-up link the next takeSetupLink() returns, as if the OS handed it over while loading. */
  setSetupLink(link: SetupLink | null): void;
  /**
   * Where the core's openBrowser goes for Sign in with Slack. By default the page shows it as a
   * link to open (a person in a browser follows it); a test passes a function that follows it
   * in a real page instead. Every URL is kept in `browserOpened`.
   */
  setOpenBrowser(open: OpenBrowser | null): void;
  /** Every URL the core asked the browser to open, in order. */
  browserOpened: string[];
  /** Sends an event to the page as main would (share-requested, show-view). */
  emit<E extends EventName>(event: E, payload: TrayshareEvents[E]): void;
  /**
   * Capture… as the shell runs it (main/electron/capture-wiring.ts) with this capture tool
   * (a test passes the portal client on its stand-in portal's bus).
   */
  capture(capturer: Capturer, source?: CaptureSource): Promise<void>;
  /** What the shell would have shown as notifications (a failed capture). */
  notified: { title: string; body: string }[];
  setThrottle(bytesPerSecond: number | null): void;
  /** Resolves once nothing is queued, waiting or sending (rejects after `timeoutMs`). */
  settled(timeoutMs?: number): Promise<void>;
  /** Updates as main/electron/updates.ts runs them, started as the app starts them. */
  updates: Updates;
  /** What the page asked the shell to copy and to open. */
  copied: string[];
  opened: string[];
  /** The app's log (a file in the harness's folder), as the app writes it. */
  log: FileLog;
  /** Folders the page asked the shell to show (Open logs folder). */
  openedFolders: string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.map': 'application/json',
};

const require = createRequire(import.meta.url);

async function bundleBridge(filesDir: string): Promise<string> {
  const result = await esbuild({
    entryPoints: [resolve(import.meta.dirname, 'browser-bridge.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    define: {
      __HARNESS_FILES_DIR__: JSON.stringify(filesDir),
      __HARNESS_METHOD_NAMES__: JSON.stringify(methodNames),
    },
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  return readBytes(req, limit).then((body) => body.toString('utf8'));
}

function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * An answer holding bytes (readCapture's PNG) comes back in the same response, as binary: the
 * bytes are the body and the rest of the answer is JSON in a header. One request per call, as
 * Electron's ipcRenderer.invoke is one message each way (its structured clone carries a
 * Uint8Array as it is); JSON would make the bytes base64, and a second request for them would
 * cost this bridge a round trip the app does not have.
 */
function sendResult(res: ServerResponse, result: unknown): void {
  if (!result || typeof result !== 'object' || Array.isArray(result)) {
    sendJson(res, 200, { result });
    return;
  }
  const parts: Uint8Array[] = [];
  let offset = 0;
  const rest = Object.fromEntries(
    Object.entries(result).map(([key, value]) => {
      if (!(value instanceof Uint8Array)) return [key, value];
      parts.push(value);
      offset += value.byteLength;
      return [key, { $bytes: [offset - value.byteLength, value.byteLength] }];
    }),
  );
  if (parts.length === 0) {
    sendJson(res, 200, { result });
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'cache-control': 'no-store',
    'x-harness-result': encodeURIComponent(JSON.stringify(rest)),
  });
  res.end(Buffer.concat(parts));
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'trayshare-harness-'));
  const filesDir = join(root, 'files');
  await mkdir(filesDir, { recursive: true });
  const renderer = options.rendererDir
    ? { dir: resolve(options.rendererDir), how: 'reused' as const }
    : await buildRenderer(options.slackClientId ?? '');
  const indexHtml = (await readFile(join(renderer.dir, 'index.html'), 'utf8')).replace(
    /<script/,
    // A classic script runs before the page's module script, so window.trayshare is there first.
    '<script src="/harness-bridge.js"></script>\n    <script',
  );
  const bridgeJs = await bundleBridge(filesDir);

  const reference = await startReferenceService({
    dataDir: join(root, 'service'),
    ...(options.serviceConfig ? { config: options.serviceConfig } : {}),
    ...(options.serviceNow ? { now: options.serviceNow } : {}),
  });
  let throttle = options.throttleBytesPerSecond ?? null;
  const browserOpened: string[] = [];
  let openBrowser: OpenBrowser | null = null;
  const log = openFileLog({ dir: join(root, 'logs'), name: 'trayshare.log' });
  const app = await createLoggedAppService(
    {
      dataDir: join(root, 'app'),
      secrets: createMemorySecretStore(),
      transport: throttleTransport(createNodeTransport(), () => throttle),
      retry: options.retry,
      openBrowser: async (url) => {
        browserOpened.push(url);
        // No test follows it: the page shows the consent page as a link (browser-bridge.ts), so a
        // person trying the interface in a browser can finish Sign in with Slack.
        if (openBrowser) await openBrowser(url);
        else emit('harness-consent', { url });
      },
      ...(options.signInPort !== undefined ? { signInPort: options.signInPort } : {}),
    },
    log,
  );
  const demo = await seedDemo(app, reference.url);

  const pickQueue: string[][] = [];
  let pending: string[] = [];
  let setupLink: SetupLink | null = null;
  const copied: string[] = [];
  const opened: string[] = [];
  const openedFolders: string[] = [];
  const shell: ShellApi = {
    // As the shell does (desktop-app.ts): what the person picked may be shown as a picture.
    pickFiles: async () => {
      const paths = pickQueue.shift() ?? [];
      app.offerImages(paths);
      return paths;
    },
    copyText: async (text) => {
      copied.push(text);
    },
    openExternal: async (url) => {
      // Same rule as the app's shell: only https links leave the app.
      if (!/^https:\/\//i.test(url)) throw new Error('Only https links can be opened.');
      opened.push(url);
    },
    takePendingPaths: async () => {
      const taken = pending;
      pending = [];
      app.offerImages(taken);
      return taken;
    },
    desktopNotes: async () => [...(options.desktopNotes ?? [])],
    keepsDropWindowOnTop: async () => options.keepsDropWindowOnTop ?? true,
    takeSetupLink: async () => {
      const taken = setupLink;
      setupLink = null;
      return taken;
    },
    // The same check as the shell's (main/electron/shell-api.ts).
    readSetupLink: async (link) => {
      const checked = parseSetupLink(link.trim());
      if (!checked.ok) throw new Error(checked.error);
      return checked.link;
    },
    // As main/electron/shell-api.ts: the folder is the log's, the text built by the core.
    openLogsFolder: async () => {
      openedFolders.push(log.dir);
    },
    copyDiagnostics: async () => {
      copied.push(await diagnosticsText({ service: app, log }));
    },
  };

  // The shell, not the core, registers the global shortcut: like main/electron/preferences-sync.ts, a
  // refused one is reported in shortcutError and the rest of the patch is still saved.
  const taken = new Set(options.takenShortcuts ?? ['CommandOrControl+Alt+T']);
  const setPreferences: AppService['setPreferences'] = async (patch) => {
    if (patch.shortcut === undefined || !taken.has(patch.shortcut))
      return app.setPreferences(patch);
    const { shortcut, ...rest } = patch;
    const result = await app.setPreferences(rest);
    return {
      ...result,
      // The shell's own words for it (as on Linux, where the harness runs).
      shortcutError: shortcutRefusedMessage(shortcut, 'linux'),
    };
  };

  const streams = new Set<ServerResponse>();
  const emit = (event: string, payload: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload ?? null)}\n\n`;
    for (const res of streams) res.write(frame);
  };
  const unsubscribe = (['queue-changed', 'history-changed', 'settings-changed'] as const).map(
    (event) => app.on(event, (payload) => emit(event, payload)),
  );
  const updates = harnessUpdates(app, options.updates, (view) => emit('updates-changed', view));
  unsubscribe.push(() => updates.dispose());

  async function rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A call with bytes (savePastedImage, saveEditedImage) comes as binary: the bytes are the
    // body and the call is JSON in a header (browser-bridge.ts), so they arrive as a Uint8Array
    // with no base64 on the way, as Electron's IPC hands them to main.
    const binary = req.headers['content-type'] === 'application/octet-stream';
    const body = binary ? await readBytes(req, 200 * 1024 * 1024) : null;
    const { method, args: sent } = JSON.parse(
      binary
        ? decodeURIComponent(String(req.headers['x-harness-call'] ?? ''))
        : await readBody(req, 200 * 1024 * 1024),
    ) as { method: string; args: unknown };
    const args = Array.isArray(sent)
      ? sent.map((a: unknown) => {
          const at = (a as { $bytes?: [number, number] } | null)?.$bytes;
          return at && body ? new Uint8Array(body.subarray(at[0], at[0] + at[1])) : a;
        })
      : sent;
    const schema = Object.hasOwn(methodArgs, method) ? methodArgs[method as MethodName] : undefined;
    if (!schema) return sendJson(res, 404, { error: `No method called ${method}.` });
    // Validated exactly as main validates IPC arguments before a handler runs.
    const parsed = schema.safeParse(args);
    if (!parsed.success) return sendJson(res, 400, { error: `Invalid arguments for ${method}.` });
    const target = (method in shell
      ? shell
      : method in updates
        ? updates
        : method === 'setPreferences'
          ? { setPreferences }
          : app) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    try {
      const result = await target[method]!(...(parsed.data as unknown[]));
      sendResult(res, result);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      sendJson(res, 200, { error: e.message, name: e.name });
    }
  }

  async function saveFile(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = url.searchParams.get('id') ?? '';
    const name = url.searchParams.get('name') ?? '';
    if (!/^[a-z0-9-]{1,64}$/.test(id) || name === '' || /[\\/]|^\.\.?$/.test(name)) {
      return sendJson(res, 400, { error: 'bad file id or name' });
    }
    const dir = join(filesDir, id);
    await mkdir(dir, { recursive: true });
    await pipeline(req, createWriteStream(join(dir, name)));
    // What the preload tells main of a dropped file (GIVEN_PATHS_CHANNEL): the person handed it.
    app.offerImages([join(dir, name)]);
    sendJson(res, 200, { path: join(dir, name) });
  }

  async function serveStatic(pathname: string, res: ServerResponse): Promise<void> {
    const file = normalize(join(renderer.dir, decodeURIComponent(pathname)));
    if (!file.startsWith(renderer.dir + sep)) return sendJson(res, 404, { error: 'not found' });
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        // Built before the harness starts, and named for their content: a page loaded again in
        // the same context (test/renderer/browser.ts reuses them) takes them, and the code
        // Chromium compiled from them, from its cache, as Electron's app keeps its code cache.
        ...(pathname.startsWith('/assets/') ? { 'cache-control': 'max-age=86400, immutable' } : {}),
      });
      res.end(body);
    } catch {
      sendJson(res, 404, { error: 'not found' });
    }
  }

  let origin = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Another site open in the same browser must not drive the harness.
    if (req.method === 'POST' && req.headers.origin && req.headers.origin !== origin) {
      return sendJson(res, 403, { error: 'cross-origin request refused' });
    }
    const route = `${req.method} ${url.pathname}`;
    const handle = async (): Promise<void> => {
      switch (route) {
        case 'GET /':
        case 'GET /index.html':
          res.writeHead(200, {
            'content-type': CONTENT_TYPES['.html']!,
            'cache-control': 'no-store',
          });
          res.end(indexHtml);
          return;
        case 'GET /favicon.ico':
          // Chromium asks every http page for one; the app has none (it runs from file:// in Electron).
          res.writeHead(204);
          res.end();
          return;
        case 'GET /harness-bridge.js':
          res.writeHead(200, { 'content-type': CONTENT_TYPES['.js']! });
          res.end(bridgeJs);
          return;
        case 'GET /_harness/axe.js':
          res.writeHead(200, {
            'content-type': CONTENT_TYPES['.js']!,
            'cache-control': 'max-age=86400, immutable',
          });
          res.end(await readFile(require.resolve('axe-core/axe.min.js')));
          return;
        case 'GET /events':
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-store',
            connection: 'keep-alive',
          });
          res.write(': connected\n\n');
          streams.add(res);
          req.on('close', () => streams.delete(res));
          return;
        case 'POST /rpc':
          return rpc(req, res);
        case 'POST /_harness/files':
          return saveFile(url, req, res);
        case 'POST /_harness/pick': {
          const { paths } = JSON.parse(await readBody(req)) as { paths: string[] };
          pickQueue.push(paths);
          return sendJson(res, 200, {});
        }
        case 'POST /_harness/pending': {
          const { paths } = JSON.parse(await readBody(req)) as { paths: string[] };
          pending = paths;
          return sendJson(res, 200, {});
        }
        case 'POST /_harness/event': {
          const { event, payload } = JSON.parse(await readBody(req)) as {
            event: string;
            payload: unknown;
          };
          // Main hands these paths over itself (share-routing.ts).
          if (event === 'share-requested') app.offerImages((payload as { paths: string[] }).paths);
          emit(event, payload);
          return sendJson(res, 200, {});
        }
        case 'GET /_harness/calls':
          return sendJson(res, 200, { copied, opened });
        default:
          if (req.method === 'GET') return serveStatic(url.pathname, res);
          return sendJson(res, 404, { error: 'not found' });
      }
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: errorMessage(error) });
      else res.destroy();
    });
  });
  const notified: { title: string; body: string }[] = [];
  // The page is the window: nothing to hide, and the share sheet opens with the capture.
  const captureWith = (capturer: Capturer) =>
    createCapture({
      service: app,
      windows: { hideForCapture: () => ({ hidden: 0, restore: () => undefined }) },
      routing: {
        requestShare: (paths) => {
          app.offerImages(paths);
          emit('share-requested', { paths });
        },
      },
      capturer,
      notify: (content) => notified.push({ title: content.title, body: content.body }),
      log: (line) => log.info(line),
    });

  await new Promise<void>((listening) => server.listen(options.port ?? 0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    app,
    reference,
    demo,
    renderer,
    filesDir,
    updates,
    pick: (paths) => void pickQueue.push(paths),
    setPending: (paths) => {
      pending = paths;
    },
    setSetupLink: (link) => {
      setupLink = link;
    },
    setOpenBrowser: (open) => {
      openBrowser = open;
    },
    browserOpened,
    emit: (event, payload) => {
      if (event === 'share-requested') app.offerImages((payload as { paths: string[] }).paths);
      emit(event, payload);
    },
    capture: (capturer, source) => captureWith(capturer).start(source),
    notified,
    setThrottle: (bytesPerSecond) => {
      throttle = bytesPerSecond;
    },
    settled: (timeoutMs = 15_000) =>
      new Promise<void>((done, fail) => {
        const busy = (items: QueueItem[]) => items.some((i) => isActiveState(i.state));
        const finish = (error?: Error) => {
          clearTimeout(timer);
          off();
          if (error) fail(error);
          // The states say the uploads ended; the queue's own settled() also waits for their
          // journal and history writes, without which clearFinished() keeps them.
          else app.settled().then(done, fail);
        };
        const timer = setTimeout(
          () => finish(new Error(`the queue was still busy after ${timeoutMs} ms`)),
          timeoutMs,
        );
        const off = app.on('queue-changed', (items) => {
          if (!busy(items)) finish();
        });
        void app.listQueue().then((items) => {
          if (!busy(items)) finish();
        }, finish);
      }),
    copied,
    opened,
    log,
    openedFolders,
    async close() {
      for (const off of unsubscribe) off();
      for (const res of streams) res.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      await app.close();
      await reference.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The app's update module over the harness's app service (updates-wiring.ts does the same in the shell). */
function harnessUpdates(
  app: AppService,
  build: DesktopUpdatesDeps | undefined,
  onChange: Parameters<typeof createUpdates>[0]['onChange'],
): Updates {
  let running = 0;
  const off = app.on('queue-changed', (items) => {
    running = items.filter((i) => isActiveState(i.state)).length;
    updates.queueChanged();
  });
  const updates = createUpdates({
    ...(build ?? {
      source: {
        updatesItself: false,
        reason: 'This is a development run: it updates with your checkout, not by itself.',
      },
      createUpdater: () => {
        throw new Error('no updater in a development run');
      },
    }),
    automatic: true,
    queue: { settled: () => app.settled(), running: () => running },
    log: { info: () => undefined, warn: () => undefined },
    onChange,
  });
  void app.getSnapshot().then((snapshot) => {
    updates.setAutomatic(snapshot.preferences.checkForUpdates);
    updates.start();
  });
  const offSettings = app.on('settings-changed', (s) =>
    updates.setAutomatic(s.preferences.checkForUpdates),
  );
  return {
    ...updates,
    dispose() {
      off();
      offSettings();
      updates.dispose();
    },
  };
}
