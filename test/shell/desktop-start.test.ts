// The first seconds on each desktop, through the real shell with fake Electron APIs: which
// window opens, what the person is told about the tray and the shortcut, and who the app is.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APP_ID,
  applyAppIdentity,
  DEVELOPMENT_APP_ID,
  DEVELOPMENT_DATA_FOLDER,
  DEVELOPMENT_NAME,
} from '../../main/electron/app-identity';
import { applicationMenuTemplate } from '../../main/electron/app-menu';
import { desktopNotes, isWayland } from '../../main/electron/desktop-notes';
import { type ShellHarness, startShellHarness } from './shell-harness';

let h: ShellHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('what opens at start', () => {
  it('Linux opens the window on every start that is not the login item (GNOME may show no tray)', async () => {
    h = await startShellHarness({ platform: 'linux', launchedAtLogin: false });
    expect(h.windows.open().map((w) => w.hash)).toEqual(['drop']);
  });

  it('Linux started by the login item stays in the tray', async () => {
    h = await startShellHarness({ platform: 'linux', launchedAtLogin: true });
    expect(h.windows.created).toEqual([]);
  });

  it('macOS and Windows with a workspace start in the tray, as tray apps do', async () => {
    h = await startShellHarness({ platform: 'darwin', launchedAtLogin: false });
    expect(h.windows.created).toEqual([]);
    await h.close();
    h = await startShellHarness({ platform: 'win32', launchedAtLogin: false });
    expect(h.windows.created).toEqual([]);
  });

  it('with no workspace yet, every desktop opens Settings', async () => {
    h = await startShellHarness({ platform: 'darwin', seed: false, launchedAtLogin: false });
    expect(h.windows.created.map((w) => w.hash)).toEqual(['settings']);
  });
});

describe('the shortcut on Wayland', () => {
  it('asks the person to approve a new one rather than claiming it is set', async () => {
    h = await startShellHarness({
      platform: 'linux',
      launchedAtLogin: false,
      shortcutNeedsApproval: true,
    });
    const titles = () => h!.notifications.map((n) => n.options.title);
    // At start the window's notes say it; a notification on every start would nag.
    expect(titles()).not.toContain('Approve the Trayshare shortcut');
    const main = h.windows.open()[0]!;
    await h.call(main, 'setPreferences', { shortcut: 'CommandOrControl+Alt+J' });
    await expect.poll(titles).toContain('Approve the Trayshare shortcut');
    const note = h.notifications.find((n) => n.options.title === 'Approve the Trayshare shortcut');
    // Named as the desktop writes it, never as Electron's accelerator.
    expect(note?.options.body).toMatch(/may use Ctrl\+Alt\+J:/);
  });

  it('says nothing of the kind on X11', async () => {
    h = await startShellHarness({ platform: 'linux', launchedAtLogin: false });
    const main = h.windows.open()[0]!;
    await h.call(main, 'setPreferences', { shortcut: 'Control+Alt+J' });
    await new Promise((r) => setTimeout(r, 20));
    expect(h.notifications.map((n) => n.options.title)).not.toContain(
      'Approve the Trayshare shortcut',
    );
  });
});

describe('the drop window on Wayland', () => {
  it('is an ordinary window there, and the setting is told it cannot stay on top', async () => {
    h = await startShellHarness({ platform: 'linux', launchedAtLogin: false, noWindowOnTop: true });
    const main = h.windows.open()[0]!;
    expect(await h.call(main, 'keepsDropWindowOnTop')).toBe(false);
    h.tray.click('drop-window');
    const drop = h.windows.byHash('drop-window')!;
    expect(drop.options.alwaysOnTop).toBe(false);
  });

  it('stays on top on X11, Windows and macOS', async () => {
    h = await startShellHarness({ platform: 'linux', launchedAtLogin: false });
    const main = h.windows.open()[0]!;
    expect(await h.call(main, 'keepsDropWindowOnTop')).toBe(true);
    h.tray.click('drop-window');
    expect(h.windows.byHash('drop-window')!.options.alwaysOnTop).toBe(true);
  });
});

describe('notes about this desktop', () => {
  const gnomeWayland = { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME', XDG_SESSION_TYPE: 'wayland' };

  it('tells GNOME users how to get the tray icon, and Wayland users about the shortcut', () => {
    const notes = desktopNotes({
      platform: 'linux',
      env: gnomeWayland,
      isPackaged: true,
      userData: '/u',
    });
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain('gnome-shell-extension-appindicator');
    expect(notes[1]).toContain('allow the Trayshare shortcut');
    // Wayland keeps no window on top: the note sends drops to the main window.
    expect(notes[2]).toBe(
      'On Wayland, apps cannot keep a window above the others, so other windows may cover the drop window. Drop files on this window instead: all of it takes drops.',
    );
  });

  it('tells an AppImage on Wayland plainly when the shortcut cannot work without the package', () => {
    const notes = desktopNotes({
      platform: 'linux',
      env: { XDG_SESSION_TYPE: 'wayland' },
      isPackaged: true,
      userData: '/u',
      appImage: {
        state: 'failed',
        error:
          '/home/ann/.local/share/applications/app.trayshare.Trayshare.desktop could not be written: EROFS',
        icon: undefined,
      },
    });
    expect(notes[0]).toBe(
      'On Wayland the global shortcut needs Trayshare’s desktop entry, and this AppImage could not set it up (/home/ann/.local/share/applications/app.trayshare.Trayshare.desktop could not be written: EROFS). For the shortcut, install the .deb package; meanwhile the tray menu and this window have every action.',
    );
    const installed = desktopNotes({
      platform: 'linux',
      env: { XDG_SESSION_TYPE: 'wayland' },
      isPackaged: true,
      userData: '/u',
      appImage: { state: 'installed', desktopFile: '/d', icon: '/i' },
    });
    expect(installed[0]).toContain('allow the Trayshare shortcut');
  });

  it('knows Electron runs under XWayland when started with --ozone-platform=x11', () => {
    const wayland = { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' };
    expect(isWayland(wayland)).toBe(true);
    expect(isWayland(wayland, 'x11')).toBe(false);
    expect(isWayland({ DISPLAY: ':0' })).toBe(false);
    expect(isWayland({ DISPLAY: ':0' }, 'wayland')).toBe(true);
    const xwayland = desktopNotes({
      platform: 'linux',
      env: wayland,
      isPackaged: true,
      userData: '/u',
      ozonePlatform: 'x11',
    });
    expect(xwayland.join(' ')).not.toMatch(/Wayland/);
  });

  it('tells a development run where its data is, and nothing else off Linux', () => {
    expect(
      desktopNotes({ platform: 'darwin', env: gnomeWayland, isPackaged: true, userData: '/u' }),
    ).toEqual([]);
    const dev = desktopNotes({
      platform: 'win32',
      env: {},
      isPackaged: false,
      userData: 'C:\\x\\Trayshare (development)',
    });
    expect(dev).toEqual([expect.stringContaining('Trayshare (development)')]);
  });

  it('reach the window through the bridge', async () => {
    h = await startShellHarness({
      platform: 'linux',
      launchedAtLogin: false,
      desktopNotes: ['No tray icon? …'],
    });
    const main = h.windows.created[0]!;
    expect(await h.call(main, 'desktopNotes')).toEqual(['No tray icon? …']);
  });
});

describe('who the app is to the OS', () => {
  function fakeApp(isPackaged: boolean, switches: string[] = []) {
    const calls: string[] = [];
    return {
      calls,
      app: {
        isPackaged,
        setName: (name: string) => calls.push(`name ${name}`),
        setAppUserModelId: (id: string) => calls.push(`aumid ${id}`),
        getPath: (_name: 'appData') => '/home/ann/.config',
        setPath: (_name: 'userData', path: string) => calls.push(`userData ${path}`),
        commandLine: { hasSwitch: (name: string) => switches.includes(name) },
      },
    };
  }

  it('sets the AppUserModelID to the installer’s appId on Windows only', () => {
    const win = fakeApp(true);
    applyAppIdentity(win.app, 'win32', join);
    expect(win.calls).toEqual([`aumid ${APP_ID}`]);
    const mac = fakeApp(true);
    applyAppIdentity(mac.app, 'darwin', join);
    expect(mac.calls).toEqual([]);
  });

  it('gives an unpackaged run its own data folder, unless one is named on the command line', () => {
    const dev = fakeApp(false);
    applyAppIdentity(dev.app, 'linux', join);
    expect(dev.calls).toEqual([`userData ${join('/home/ann/.config', DEVELOPMENT_DATA_FOLDER)}`]);
    const demo = fakeApp(false, ['user-data-dir']);
    applyAppIdentity(demo.app, 'linux', join);
    expect(demo.calls).toEqual([]);
  });

  it('gives `npm start` on Windows its own name and AUMID, so the installed app’s Start-menu shortcut is left alone', () => {
    const dev = fakeApp(false);
    applyAppIdentity(dev.app, 'win32', join);
    expect(dev.calls).toEqual([
      `name ${DEVELOPMENT_NAME}`,
      `aumid ${DEVELOPMENT_APP_ID}`,
      `userData ${join('/home/ann/.config', DEVELOPMENT_DATA_FOLDER)}`,
    ]);
    expect(DEVELOPMENT_NAME).toBe('Trayshare (development)');
    expect(DEVELOPMENT_APP_ID).not.toBe(APP_ID);
  });

  it('has no menu bar on Windows and Linux, and app + Edit menus on macOS', () => {
    expect(applicationMenuTemplate('win32')).toBeNull();
    expect(applicationMenuTemplate('linux')).toBeNull();
    expect(applicationMenuTemplate('darwin')).toEqual([{ role: 'appMenu' }, { role: 'editMenu' }]);
  });
});
