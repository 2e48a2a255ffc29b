// Windows' capture UI (the Snipping Tool gives an image back only to MSIX-packaged apps; the NSIS
// build is not one): the screens' pixels from desktopCapturer, then one frameless, always-on-top
// window per display showing its own picture, where the person drags an area, presses Enter for
// the whole display or Esc to cancel. The cut is made here, from desktopCapturer's image, at the
// display's device pixels (main/core/capture/overlay-selection.ts has the rules).
// desktopCapturer gives no window's position (a source has id, name, thumbnail, display_id and
// appIcon: https://electronjs.org/docs/api/structures/desktop-capturer-source), so a click
// cannot pick the window under it: a click takes the display, as overlayChoice does where no
// window is known, and docs/capture.md says to drag over a window instead.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import { z } from 'zod';
import { OVERLAY_CHANNELS, type OverlayImage } from '../../preload/overlay-contract';
import type { CaptureOutcome } from '../core/capture/capture-outcome';
import {
  captureBox,
  type DisplayLike,
  devicePixelSize,
  displayAt,
  matchSources,
  type OverlayChoice,
  overlayChoice,
  type Point,
  type Rect,
  toImagePixels,
} from '../core/capture/overlay-selection';
import type { Capturer } from '../core/capture/take-capture';
import type { InvokeEvent, IpcMainLike } from './ipc';
import { describeSender, isRendererUrl, type RendererLocation } from './renderer-location';
import { hardenedWebPreferences } from './windows';

/** The parts of a NativeImage the overlay uses. */
export interface ImageLike {
  isEmpty(): boolean;
  getSize(): { width: number; height: number };
  crop(rect: Rect): ImageLike;
  resize(options: { width: number; height: number; quality: 'best' | 'good' }): ImageLike;
  toPNG(): Buffer;
  toJPEG(quality: number): Buffer;
}

/** The parts of a BrowserWindow the overlay uses. */
interface OverlayWindowLike {
  webContents: { id: number };
  loadFile(path: string): Promise<void>;
  loadURL(url: string): Promise<void>;
  setAlwaysOnTop(flag: boolean, level: 'screen-saver'): void;
  setBounds(bounds: Rect): void;
  show(): void;
  focus(): void;
  isDestroyed(): boolean;
  destroy(): void;
  once(event: 'closed', listener: () => void): unknown;
}

/** Electron's values the overlay needs (index.ts passes the real ones, tests fakes). */
export interface OverlayElectron {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => OverlayWindowLike;
  screen: { getAllDisplays(): DisplayLike[]; getCursorScreenPoint(): Point };
  desktopCapturer: {
    getSources(options: {
      types: 'screen'[];
      thumbnailSize: { width: number; height: number };
    }): Promise<{ display_id: string; thumbnail: ImageLike }[]>;
  };
  ipcMain: IpcMainLike;
}

export interface OverlayDeps {
  electron: OverlayElectron;
  /** Where the app's own page is: the overlay page sits beside it (renderer/overlay.html). */
  renderer: RendererLocation;
  /** The overlay's own preload (out/preload/overlay.cjs). */
  preloadPath: string;
  log(message: string): void;
  /** How long the overlay may take to show before the capture counts as failed. */
  openTimeoutMs?: number;
}

interface Shot {
  display: DisplayLike;
  image: ImageLike;
}

type Picked =
  | { kind: 'chosen'; shot: Shot; choice: Exclude<OverlayChoice, { kind: 'cancel' | 'none' }> }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

const point = z.strictObject({ x: z.number(), y: z.number() });
/** What the page may report: a key, a drag or a click in its display's DIPs. */
const chooseArgs = z.tuple([
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('key'), key: z.string().max(32) }),
    z.strictObject({ kind: z.literal('drag'), from: point, to: point }),
    z.strictObject({ kind: z.literal('click'), at: point }),
  ]),
]);

const OPEN_TIMEOUT_MS = 10_000;
/**
 * The share sheet's thumbnail box (96×64 CSS pixels, capture-preview.tsx) at 2×: made here from
 * pixels already decoded, so the page decodes a few KB instead of the whole screenshot.
 */
const THUMBNAIL = { width: 192, height: 128 };
/** The overlay's picture: only shown, so JPEG (fast to make) rather than PNG. */
const SHOWN_QUALITY = 90;

function overlayPage(renderer: RendererLocation): RendererLocation {
  return renderer.kind === 'file'
    ? { kind: 'file', indexPath: join(dirname(renderer.indexPath), 'overlay.html') }
    : { kind: 'dev-server', url: new URL('overlay.html', renderer.url).href };
}

function isOverlayUrl(page: RendererLocation, url: string): boolean {
  if (!isRendererUrl(page, url)) return false;
  // The dev server's origin serves both pages: the path tells them apart.
  return page.kind === 'file' || new URL(url).pathname === new URL(page.url).pathname;
}

function overlayWindowOptions(display: DisplayLike, preloadPath: string) {
  return {
    ...display.bounds,
    title: 'Trayshare capture',
    frame: false,
    show: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    hasShadow: false,
    enableLargerThanScreen: true,
    backgroundColor: '#000000',
    webPreferences: hardenedWebPreferences(preloadPath),
  } satisfies BrowserWindowConstructorOptions;
}

/** Every display's picture, at its own pixel size where desktopCapturer gives it so. */
async function takeShots(electron: OverlayElectron): Promise<Shot[]> {
  const displays = electron.screen.getAllDisplays();
  const sources = await electron.desktopCapturer.getSources({
    types: ['screen'],
    thumbnailSize: captureBox(displays),
  });
  return matchSources(displays, sources)
    .filter(({ source }) => !source.thumbnail.isEmpty())
    .map(({ display, source }) => ({ display, image: source.thumbnail }));
}

/** The chosen part of a display's picture, at the display's device pixels, as a PNG. */
function cutOut(
  shot: Shot,
  choice: { kind: 'screen' } | { kind: 'area' | 'window'; rect: Rect },
): { png: Buffer; thumbnail: Buffer } {
  const { width, height } = shot.display.bounds;
  const rect = choice.kind === 'screen' ? { x: 0, y: 0, width, height } : choice.rect;
  let image = shot.image.crop(toImagePixels(rect, shot.display, shot.image.getSize()));
  const want = devicePixelSize(rect, shot.display);
  const got = image.getSize();
  if (Math.abs(got.width - want.width) > 1 || Math.abs(got.height - want.height) > 1) {
    image = image.resize({ ...want, quality: 'best' });
  }
  const fit = Math.min(THUMBNAIL.width / want.width, THUMBNAIL.height / want.height, 1);
  const thumbnail = image.resize({
    width: Math.max(1, Math.round(want.width * fit)),
    height: Math.max(1, Math.round(want.height * fit)),
    quality: 'good',
  });
  return { png: image.toPNG(), thumbnail: thumbnail.toPNG() };
}

function underCursor(electron: OverlayElectron, shots: readonly Shot[]): Shot {
  const hit = displayAt(
    electron.screen.getCursorScreenPoint(),
    shots.map((s) => s.display),
  );
  return shots.find((s) => s.display === hit?.display) ?? shots[0]!;
}

/** Opens the overlay on every display and waits for the person's choice. */
function runOverlay(deps: OverlayDeps, shots: readonly Shot[]): Promise<Picked> {
  const { electron, log } = deps;
  const page = overlayPage(deps.renderer);
  const focusShot = underCursor(electron, shots);
  const windows = new Map<number, { window: OverlayWindowLike; shot: Shot }>();
  return new Promise<Picked>((resolve) => {
    let done = false;
    const finish = (picked: Picked) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const channel of Object.values(OVERLAY_CHANNELS))
        electron.ipcMain.removeHandler(channel);
      for (const { window } of windows.values()) if (!window.isDestroyed()) window.destroy();
      resolve(picked);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', message: 'The capture overlay did not open. Try again.' }),
      deps.openTimeoutMs ?? OPEN_TIMEOUT_MS,
    );
    const from = (event: InvokeEvent) => {
      const frame = event.senderFrame;
      const entry = windows.get(event.sender.id);
      if (!entry || !frame || frame.parent !== null || !isOverlayUrl(page, frame.url)) {
        log(`Refused an overlay call: it came from ${describeSender(frame?.url)}.`);
        throw new Error("Refused: the call did not come from Trayshare's capture overlay.");
      }
      return entry;
    };
    // A handler left by an overlay that ended abnormally would make handle() throw.
    for (const channel of Object.values(OVERLAY_CHANNELS)) electron.ipcMain.removeHandler(channel);
    electron.ipcMain.handle(OVERLAY_CHANNELS.image, (event): OverlayImage => {
      return { jpeg: from(event).shot.image.toJPEG(SHOWN_QUALITY) };
    });
    electron.ipcMain.handle(OVERLAY_CHANNELS.ready, (event) => {
      const entry = from(event);
      clearTimeout(timer);
      entry.window.show();
      // Keys go to the display the pointer is on.
      if (entry.shot === focusShot) entry.window.focus();
    });
    electron.ipcMain.handle(OVERLAY_CHANNELS.choose, (event, ...args) => {
      const entry = from(event);
      const parsed = chooseArgs.safeParse(args);
      if (!parsed.success) {
        log('Refused an overlay choice: malformed arguments.');
        throw new Error('Refused: the overlay sent a malformed choice.');
      }
      const choice = overlayChoice(parsed.data[0], entry.shot.display);
      if (choice.kind === 'none') return false;
      finish(
        choice.kind === 'cancel'
          ? { kind: 'cancelled' }
          : { kind: 'chosen', shot: entry.shot, choice },
      );
      return true;
    });
    for (const shot of shots) openWindow(deps, page, shot, windows, finish);
  });
}

function openWindow(
  deps: OverlayDeps,
  page: RendererLocation,
  shot: Shot,
  windows: Map<number, { window: OverlayWindowLike; shot: Shot }>,
  finish: (picked: Picked) => void,
): void {
  const window = new deps.electron.BrowserWindow(
    overlayWindowOptions(shot.display, deps.preloadPath),
  ); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK
  windows.set(window.webContents.id, { window, shot });
  // Above the taskbar too; the bounds again once made, as Windows may size a window made on a
  // display of another scale factor by the first display's.
  window.setAlwaysOnTop(true, 'screen-saver');
  window.setBounds(shot.display.bounds);
  // Closed another way (Alt+F4): as Esc.
  window.once('closed', () => finish({ kind: 'cancelled' }));
  const loading = page.kind === 'file' ? window.loadFile(page.indexPath) : window.loadURL(page.url);
  loading.catch((error: unknown) => {
    deps.log(`The capture overlay did not load: ${String(error)}`);
    finish({ kind: 'failed', message: 'The capture overlay did not open. Try again.' });
  });
}

/** The Windows capturer: the overlay, or for `screen` the display under the pointer at once. */
export function createOverlayCapturer(deps: OverlayDeps): Capturer {
  return async (source, scratch): Promise<CaptureOutcome> => {
    let shots: Shot[];
    try {
      shots = await takeShots(deps.electron);
    } catch (error) {
      deps.log(`desktopCapturer failed: ${String(error)}`);
      return { kind: 'failed', message: 'Windows did not give Trayshare a picture of the screen.' };
    }
    if (shots.length === 0) {
      return { kind: 'failed', message: 'Windows did not give Trayshare a picture of the screen.' };
    }
    const picked: Picked =
      source === 'screen'
        ? { kind: 'chosen', shot: underCursor(deps.electron, shots), choice: { kind: 'screen' } }
        : await runOverlay(deps, shots);
    if (picked.kind !== 'chosen') return picked;
    const { png, thumbnail } = cutOut(picked.shot, picked.choice);
    await writeFile(scratch, png, { mode: 0o600 });
    return {
      kind: 'file',
      path: scratch,
      source: picked.choice.kind === 'screen' ? 'screen' : 'area',
      thumbnail: new Uint8Array(thumbnail),
    };
  };
}

/** index.ts's call: the overlay page beside the app's page, its preload beside the app's. */
export function overlayCapturer(
  electron: OverlayElectron,
  renderer: RendererLocation,
  appPath: string,
  log: (message: string) => void,
): Capturer {
  const preloadPath = join(appPath, 'out', 'preload', 'overlay.cjs');
  return createOverlayCapturer({ electron, renderer, preloadPath, log });
}
