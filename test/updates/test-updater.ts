// electron-updater's real AppImageUpdater, as the packaged app would run it, with what only the
// Electron binary provides replaced: the app (a test AppAdapter, the interface electron-updater
// defines for this: version, paths, quit) and the HTTP client (Node's http in place of Chromium's
// net, through builder-util-runtime's HttpExecutor, the same base ElectronHttpExecutor extends).
// Everything else (reading app-update.yml, the generic provider, the version rule, the download
// and its sha512 check, the cache) is electron-updater's own code.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type ClientRequest, request as httpRequest, type RequestOptions } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  type DownloadOptions,
  HttpExecutor,
} from 'builder-util-runtime';
import electronUpdater from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import type { UpdaterLike } from '../../main/electron/updates';

/**
 * ElectronHttpExecutor with Node's http in place of Electron's net: `download` is its method
 * line for line; the streaming, redirects and the sha512 check are builder-util-runtime's
 * doDownload, as in the app.
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  async download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return await options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }

  createRequest(options: RequestOptions, callback: (response: unknown) => void): ClientRequest {
    return httpRequest(options, callback);
  }
}

class TestAppAdapter implements AppAdapter {
  readonly name = 'Trayshare';
  readonly isPackaged = true;
  quits = 0;
  constructor(
    readonly version: string,
    readonly appUpdateConfigPath: string,
    readonly userDataPath: string,
    readonly baseCachePath: string,
  ) {}
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  relaunch(): void {}
  quit(): void {
    this.quits++;
  }
  onQuit(): void {}
}

export interface TestUpdater {
  updater: UpdaterLike;
  app: TestAppAdapter;
  /** Where a finished download waits to be installed (DownloadedUpdateHelper's pending folder). */
  pendingDir: string;
  /** electron-updater's own log lines. */
  close(): Promise<void>;
}

export async function createTestUpdater(opts: {
  feedUrl: string;
  /** The running app's version. */
  version: string;
}): Promise<TestUpdater> {
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-updater-'));
  const config = join(dir, 'resources', 'app-update.yml');
  await mkdir(join(dir, 'resources'), { recursive: true });
  // What electron-builder writes into resources/ from `publish` (PublishManager), here a generic feed.
  await writeFile(
    config,
    `provider: generic\nurl: ${opts.feedUrl}\nupdaterCacheDirName: trayshare-updater\n`,
  );
  // The AppImage that is running: AppImageUpdater downloads beside nothing but needs its path.
  const appImage = join(dir, 'Trayshare.AppImage');
  await writeFile(appImage, 'the running AppImage');
  const previousAppImage = process.env.APPIMAGE;
  process.env.APPIMAGE = appImage;

  const app = new TestAppAdapter(opts.version, config, join(dir, 'userData'), join(dir, 'cache'));
  const updater = new electronUpdater.AppImageUpdater(null, app);
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor =
    new NodeHttpExecutor();
  // An AppImage's differential download reads the block map embedded in the running AppImage,
  // which this stand-in has none of: the whole file is fetched, as on a first update.
  updater.disableDifferentialDownload = true;
  return {
    updater,
    app,
    pendingDir: join(dir, 'cache', 'trayshare-updater', 'pending'),
    async close() {
      if (previousAppImage === undefined) delete process.env.APPIMAGE;
      else process.env.APPIMAGE = previousAppImage;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
