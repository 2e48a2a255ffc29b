// Windows' capture overlay, main side, with fakes for what only Electron on Windows has
// (BrowserWindow, screen, desktopCapturer, ipcMain, NativeImage): what it asks desktopCapturer
// for, the windows it opens, the calls it takes and refuses, and the file a choice makes.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindowConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OVERLAY_CHANNELS } from '../../preload/overlay-contract';
import type { CaptureOutcome } from '../core/capture/capture-outcome';
import type { DisplayLike, Rect } from '../core/capture/overlay-selection';
import { createOverlayCapturer, type ImageLike, type OverlayElectron } from './capture-overlay';
import type { InvokeEvent } from './ipc';
import { hardenedWebPreferences } from './windows';

/** An image that remembers how it was cut: its PNG is that story, so a test can read it. */
class FakeImage implements ImageLike {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly steps: string[] = [],
  ) {}
  isEmpty = () => false;
  getSize = () => ({ width: this.width, height: this.height });
  crop = (r: Rect) =>
    new FakeImage(r.width, r.height, [...this.steps, `crop ${r.x},${r.y} ${r.width}×${r.height}`]);
  resize = (o: { width: number; height: number }) =>
    new FakeImage(o.width, o.height, [...this.steps, `resize ${o.width}×${o.height}`]);
  toPNG = () => Buffer.from(JSON.stringify({ size: [this.width, this.height], steps: this.steps }));
  toJPEG = () => Buffer.from(`jpeg ${this.width}×${this.height}`);
}

const laptop: DisplayLike = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1280, height: 800 },
  scaleFactor: 1.5,
};
const monitor: DisplayLike = {
  id: 2,
  bounds: { x: 1280, y: 0, width: 2560, height: 1440 },
  scaleFactor: 1,
};

let dir: string;
let scratch: string;
const rendererDir = join(tmpdir(), 'trayshare-app', 'out', 'renderer');
const overlayUrl = pathToFileURL(join(rendererDir, 'overlay.html')).href;

function fakeElectron(
  opts: { sources?: () => Promise<{ display_id: string; thumbnail: ImageLike }[]> } = {},
) {
  const handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  const windows: FakeWindow[] = [];
  let nextId = 10;
  class FakeWindow {
    webContents = { id: nextId++ };
    calls: string[] = [];
    destroyed = false;
    closed: (() => void)[] = [];
    constructor(readonly options: BrowserWindowConstructorOptions) {
      windows.push(this);
    }
    loadFile = async (path: string) => void this.calls.push(`loadFile ${path}`);
    loadURL = async (url: string) => void this.calls.push(`loadURL ${url}`);
    setAlwaysOnTop = (flag: boolean, level: string) => void this.calls.push(`top ${flag} ${level}`);
    setBounds = (b: Rect) => void this.calls.push(`bounds ${b.x},${b.y} ${b.width}×${b.height}`);
    show = () => void this.calls.push('show');
    focus = () => void this.calls.push('focus');
    isDestroyed = () => this.destroyed;
    destroy = () => {
      this.destroyed = true;
      for (const listener of this.closed) listener();
    };
    once = (_event: 'closed', listener: () => void) => this.closed.push(listener);
  }
  const getSources = vi.fn(
    opts.sources ??
      (async () => [
        // desktopCapturer fits each screen into the one size asked (2560×1440 here).
        { display_id: '2', thumbnail: new FakeImage(2560, 1440) },
        { display_id: '1', thumbnail: new FakeImage(2304, 1440) },
      ]),
  );
  const electron: OverlayElectron = {
    BrowserWindow: FakeWindow,
    screen: {
      getAllDisplays: () => [laptop, monitor],
      getCursorScreenPoint: () => ({ x: 2000, y: 300 }),
    },
    desktopCapturer: { getSources },
    ipcMain: {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    },
  };
  /** A call from a window's page (or from elsewhere, with `frame`). */
  const call = async (
    window: FakeWindow | { webContents: { id: number } },
    channel: string,
    args: unknown[] = [],
    frame: InvokeEvent['senderFrame'] = { url: overlayUrl, parent: null },
  ) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ sender: { id: window.webContents.id }, senderFrame: frame }, ...args);
  };
  return { electron, windows, handlers, getSources, call };
}

function start(fake: ReturnType<typeof fakeElectron>, source: 'area' | 'screen' = 'area') {
  const log = vi.fn();
  const capturer = createOverlayCapturer({
    electron: fake.electron,
    renderer: { kind: 'file', indexPath: join(rendererDir, 'index.html') },
    preloadPath: '/app/out/preload/overlay.cjs',
    log,
  });
  return { outcome: capturer(source, scratch), log };
}

async function opened(fake: ReturnType<typeof fakeElectron>) {
  await vi.waitFor(() => expect(fake.windows).toHaveLength(2));
  const [onLaptop, onMonitor] = fake.windows as [
    (typeof fake.windows)[number],
    (typeof fake.windows)[number],
  ];
  return { onLaptop, onMonitor };
}

/** The thumbnail a capture came with (FakeImage's PNG is how it was made). */
function thumbnailOf(outcome: CaptureOutcome): { size: number[]; steps: string[] } {
  if (outcome.kind !== 'file' || !outcome.thumbnail) throw new Error('no thumbnail');
  return JSON.parse(Buffer.from(outcome.thumbnail).toString('utf8'));
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-overlay-'));
  scratch = join(dir, '.capture.png');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Windows capture overlay', () => {
  it('asks for every screen at its own pixels and covers each display with a hardened window', async () => {
    const fake = fakeElectron();
    const { outcome } = start(fake);
    const { onLaptop, onMonitor } = await opened(fake);
    expect(fake.getSources).toHaveBeenCalledWith({
      types: ['screen'],
      thumbnailSize: { width: 2560, height: 1440 },
    });
    expect(onMonitor.options).toMatchObject({
      x: 1280,
      y: 0,
      width: 2560,
      height: 1440,
      frame: false,
      show: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      webPreferences: {
        preload: '/app/out/preload/overlay.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
      },
    });
    // Exactly the app's own windows' hardening (windows.ts), with the overlay's own preload.
    expect(onLaptop.options.webPreferences).toEqual(
      hardenedWebPreferences('/app/out/preload/overlay.cjs'),
    );
    expect(onLaptop.calls).toEqual([
      'top true screen-saver',
      'bounds 0,0 1280×800',
      `loadFile ${join(rendererDir, 'overlay.html')}`,
    ]);
    // Each page gets its own display's picture, and shows once it has drawn it; keys go to the
    // display under the pointer.
    const jpeg = async (w: (typeof fake.windows)[number]) =>
      Buffer.from(
        ((await fake.call(w, OVERLAY_CHANNELS.image)) as { jpeg: Uint8Array }).jpeg,
      ).toString();
    expect(await jpeg(onLaptop)).toBe('jpeg 2304×1440');
    expect(await jpeg(onMonitor)).toBe('jpeg 2560×1440');
    await fake.call(onLaptop, OVERLAY_CHANNELS.ready);
    await fake.call(onMonitor, OVERLAY_CHANNELS.ready);
    expect(onLaptop.calls.slice(3)).toEqual(['show']);
    expect(onMonitor.calls.slice(3)).toEqual(['show', 'focus']);
    await fake.call(onMonitor, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'Escape' }]);
    expect(await outcome).toEqual({ kind: 'cancelled' });
  });

  it('cuts a dragged area at the display’s device pixels into a private file, then closes', async () => {
    const fake = fakeElectron();
    const { outcome } = start(fake);
    const { onLaptop, onMonitor } = await opened(fake);
    const taken = await fake.call(onLaptop, OVERLAY_CHANNELS.choose, [
      { kind: 'drag', from: { x: 300, y: 200 }, to: { x: 100, y: 50 } },
    ]);
    expect(taken).toBe(true);
    const kept = await outcome;
    expect(kept).toMatchObject({ kind: 'file', path: scratch, source: 'area' });
    // The share sheet's thumbnail is made here, from the pixels in hand: 300×225 fits 192×128.
    expect(thumbnailOf(kept)).toEqual({
      size: [171, 128],
      steps: ['crop 180,90 360×270', 'resize 300×225', 'resize 171×128'],
    });
    // The laptop's picture came 2304 wide for 1280 DIPs (1.8×): the 200×150 DIP area is cut
    // from it and brought to the laptop's own 1.5×, 300×225 pixels.
    expect(JSON.parse(await readFile(scratch, 'utf8'))).toEqual({
      size: [300, 225],
      steps: ['crop 180,90 360×270', 'resize 300×225'],
    });
    if (process.platform !== 'win32') expect((await stat(scratch)).mode & 0o777).toBe(0o600);
    expect(onLaptop.destroyed && onMonitor.destroyed).toBe(true);
    expect(fake.handlers.size).toBe(0);
  });

  it('takes the whole display on Enter, at its own pixels with no resize', async () => {
    const fake = fakeElectron();
    const { outcome } = start(fake);
    const { onMonitor } = await opened(fake);
    // Another key is no choice: the overlay stays.
    expect(await fake.call(onMonitor, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'a' }])).toBe(
      false,
    );
    await fake.call(onMonitor, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'Enter' }]);
    const taken = await outcome;
    expect(taken).toMatchObject({ kind: 'file', path: scratch, source: 'screen' });
    expect(thumbnailOf(taken).size).toEqual([192, 108]);
    expect(JSON.parse(await readFile(scratch, 'utf8'))).toEqual({
      size: [2560, 1440],
      steps: ['crop 0,0 2560×1440'],
    });
  });

  it('cancels on Esc or a closed window, and leaves no file', async () => {
    for (const how of ['esc', 'close'] as const) {
      const fake = fakeElectron();
      const { outcome } = start(fake);
      const { onLaptop, onMonitor } = await opened(fake);
      if (how === 'esc') {
        await fake.call(onLaptop, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'Escape' }]);
      } else {
        onLaptop.destroy();
      }
      expect(await outcome).toEqual({ kind: 'cancelled' });
      expect(onMonitor.destroyed).toBe(true);
      await expect(stat(scratch)).rejects.toThrow();
    }
  });

  it('refuses calls from other windows, frames and pages, and malformed choices', async () => {
    const fake = fakeElectron();
    const { outcome, log } = start(fake);
    const { onLaptop } = await opened(fake);
    const appPage = pathToFileURL(join(rendererDir, 'index.html')).href;
    await expect(fake.call({ webContents: { id: 999 } }, OVERLAY_CHANNELS.image)).rejects.toThrow(
      /capture overlay/,
    );
    await expect(
      fake.call(onLaptop, OVERLAY_CHANNELS.image, [], { url: overlayUrl, parent: {} }),
    ).rejects.toThrow(/capture overlay/);
    await expect(
      fake.call(onLaptop, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'Enter' }], {
        url: appPage,
        parent: null,
      }),
    ).rejects.toThrow(/capture overlay/);
    for (const bad of [
      [{ kind: 'drag', from: { x: '1', y: 0 }, to: { x: 5, y: 5 } }],
      [{ kind: 'key', key: 'Enter', path: 'C:\\x' }],
      [{ kind: 'window', id: 'x' }],
      [],
    ]) {
      await expect(fake.call(onLaptop, OVERLAY_CHANNELS.choose, bad)).rejects.toThrow(/malformed/);
    }
    expect(log.mock.calls.flat().join('\n')).not.toContain('C:\\x');
    // None of them chose anything: the overlay is still up, and Esc still cancels.
    expect(onLaptop.destroyed).toBe(false);
    await fake.call(onLaptop, OVERLAY_CHANNELS.choose, [{ kind: 'key', key: 'Escape' }]);
    expect(await outcome).toEqual({ kind: 'cancelled' });
  });

  it('takes the display under the pointer at once for a screen capture', async () => {
    const fake = fakeElectron();
    const { outcome } = start(fake, 'screen');
    expect(await outcome).toMatchObject({ kind: 'file', path: scratch, source: 'screen' });
    expect(fake.windows).toHaveLength(0);
    expect(JSON.parse(await readFile(scratch, 'utf8')).size).toEqual([2560, 1440]);
  });

  it('says so when Windows gives no picture of the screen', async () => {
    for (const sources of [async () => [], async () => Promise.reject(new Error('boom'))]) {
      const fake = fakeElectron({ sources });
      const { outcome } = start(fake);
      expect(await outcome).toEqual({
        kind: 'failed',
        message: 'Windows did not give Trayshare a picture of the screen.',
      });
      expect(fake.windows).toHaveLength(0);
    }
  });
});
