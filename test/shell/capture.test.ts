// Capture… and the capture shortcut in the running shell (Electron faked, everything else
// real): Trayshare's windows step aside, the desktop's portal (a stand-in on a private D-Bus
// bus) takes the image, and it opens in the share sheet; shared, it is uploaded and deleted.
import { access } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { portalCapturer } from '../../main/core/capture/capturers';
import { SCREEN_RECORDING_HELP } from '../../main/core/capture/macos';
import type { Capturer } from '../../main/core/capture/take-capture';
import { startTestPortal, type TestPortal } from '../capture/test-portal';
import { TINY_PNG } from '../harness/tiny-png';
import { type ShellHarness, startShellHarness } from './shell-harness';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe.skipIf(process.platform !== 'linux')('capture from the tray and the shortcut', () => {
  let portal: TestPortal;
  let h: ShellHarness;
  /** Whether a Trayshare window was showing when the capture tool started. */
  let shownAtCapture: boolean[];
  beforeAll(async () => {
    portal = await startTestPortal();
  });
  afterAll(async () => {
    await portal?.close();
  });
  afterEach(async () => {
    await h?.close();
  });

  const start = async (options: Parameters<typeof startShellHarness>[0] = {}) => {
    shownAtCapture = [];
    const real = portalCapturer(portal.address);
    const capturer: Capturer = (source, scratch) => {
      shownAtCapture.push(h.windows.open().some((w) => w.visible));
      return real(source, scratch);
    };
    h = await startShellHarness({ capturer, ...options });
    return h;
  };

  it('Capture… hides the window, then opens the share sheet with the screenshot; shared, it is deleted', async () => {
    await start();
    h.shell.activate();
    expect(h.windows.open().some((w) => w.visible)).toBe(true);
    portal.answer({ kind: 'file', png: TINY_PNG });
    h.tray.click('capture');
    await vi.waitFor(() =>
      expect(h.windows.open()[0]!.webContents.eventsSent('share-requested')).toHaveLength(1),
    );
    expect(shownAtCapture).toEqual([false]);
    const main = h.windows.open()[0]!;
    expect(main.visible).toBe(true);
    const [request] = main.webContents.eventsSent('share-requested') as { paths: string[] }[];
    const path = request!.paths[0]!;
    expect(dirname(path)).toBe(join(h.dir, 'app', 'state', 'pasted'));
    expect(basename(path)).toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d\.png$/);

    // The page asks for the thumbnail's bytes: given for the capture, refused for any other file.
    const preview = (await h.call(main, 'readCapture', path)) as {
      source: string;
      png: Uint8Array;
    };
    expect(preview.source).toBe('area');
    expect(Buffer.from(preview.png)).toEqual(TINY_PNG);
    const [other] = await h.files('notes.txt');
    expect(await h.call(main, 'readCapture', other)).toBeNull();

    await h.call(main, 'share', { target: { presetId: h.demo!.randomPresetId }, paths: [path] });
    await vi.waitFor(() =>
      expect(h.reference.uploads().map((u) => u.name)).toContain(basename(path)),
    );
    expect(h.reference.uploads()[0]).toMatchObject({ size: TINY_PNG.length });
    await vi.waitFor(async () => expect(await exists(path)).toBe(false));
    expect(h.notifications.map((n) => n.options.title)).not.toContain(
      'Could not take the screenshot',
    );
  });

  it('"Copy the link when an upload is delivered", saved from before, copies a capture’s link once delivered', async () => {
    await start({ preferences: { copyLinkOnDelivery: true } });
    portal.answer({ kind: 'file', png: TINY_PNG });
    await h.shell.capture();
    const main = h.windows.open()[0]!;
    const [request] = main.webContents.eventsSent('share-requested') as { paths: string[] }[];
    const path = request!.paths[0]!;
    await h.call(main, 'share', { target: { presetId: h.demo!.randomPresetId }, paths: [path] });
    await h.service.settled();
    const [entry] = await h.service.listHistory({ search: basename(path) });
    expect(entry?.permalink).toMatch(/^http/);
    await vi.waitFor(() => expect(h.clipboard.written.at(-1)).toBe(entry!.permalink));
    await vi.waitFor(async () => expect(await exists(path)).toBe(false));
  });

  it('the capture shortcut (⌘⇧2 / Ctrl+Shift+2 by default) captures; a cancel puts the window back and says nothing', async () => {
    await start({ launchedAtLogin: false, seed: true });
    h.shell.activate();
    expect(h.shortcut.registered.has('CommandOrControl+Shift+2')).toBe(true);
    portal.answer({ kind: 'cancelled' });
    const before = portal.calls.length;
    h.shortcut.press('CommandOrControl+Shift+2');
    await vi.waitFor(() => expect(portal.calls.length).toBe(before + 1));
    await vi.waitFor(() => expect(h.windows.open()[0]!.visible).toBe(true));
    expect(shownAtCapture).toEqual([false]);
    expect(h.windows.open()[0]!.webContents.eventsSent('share-requested')).toEqual([]);
    expect(h.notifications).toEqual([]);
  });

  it('a pinned drop window steps aside for the capture and comes back beside the share sheet', async () => {
    await start({ preferences: { dropWindowPinned: true } });
    const drop = h.windows.byHash('drop-window')!;
    expect(drop.visible).toBe(true);
    portal.answer({ kind: 'file', png: TINY_PNG });
    await h.shell.capture();
    expect(shownAtCapture).toEqual([false]);
    expect(drop.visible).toBe(true);
    expect(h.windows.byHash('share')?.visible).toBe(true);
  });

  it('a portal error is said in a notification', async () => {
    await start();
    portal.answer({
      kind: 'error',
      name: 'org.freedesktop.portal.Error.Failed',
      text: 'No screen',
    });
    await h.shell.capture();
    expect(h.notifications.map((n) => n.options)).toEqual([
      {
        title: 'Could not take the screenshot',
        body: 'The screenshot portal refused the capture: No screen',
      },
    ]);
  });

  it('a capture whose share sheet was cancelled is deleted', async () => {
    await start();
    portal.answer({ kind: 'file', png: TINY_PNG });
    await h.shell.capture();
    const main = h.windows.open()[0]!;
    const [request] = main.webContents.eventsSent('share-requested') as { paths: string[] }[];
    const path = request!.paths[0]!;
    await h.call(main, 'discardCapture', path);
    await vi.waitFor(async () => expect(await exists(path)).toBe(false));
  });

  it('the capture shortcut can be changed and turned off, and cannot take the share shortcut’s keys', async () => {
    await start({ preferences: { shortcut: 'Control+Alt+U' } });
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const taken = (await h.call(main, 'setPreferences', { captureShortcut: 'Control+Alt+U' })) as {
      captureShortcutError?: string;
      preferences: { captureShortcut: string };
    };
    expect(taken.captureShortcutError).toBe(
      "Control+Alt+U is already Trayshare's other shortcut. Choose different keys.",
    );
    expect(taken.preferences.captureShortcut).toBe('CommandOrControl+Shift+2');
    await h.call(main, 'setPreferences', { captureShortcut: 'Control+Alt+P' });
    expect(h.shortcut.registered.has('Control+Alt+P')).toBe(true);
    expect(h.shortcut.registered.has('CommandOrControl+Shift+2')).toBe(false);
    await h.call(main, 'setPreferences', { captureShortcut: '' });
    expect(h.shortcut.registered.has('Control+Alt+P')).toBe(false);
    expect(h.shortcut.registered.has('Control+Alt+U')).toBe(true);
  });

  it('on macOS without Screen Recording, says how to grant it and takes nothing', async () => {
    await start({ platform: 'darwin', screenAccess: 'denied' });
    const before = portal.calls.length;
    await h.shell.capture();
    expect(portal.calls.length).toBe(before);
    expect(h.notifications.map((n) => n.options.body)).toEqual([SCREEN_RECORDING_HELP]);
  });
});
