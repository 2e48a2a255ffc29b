// The global shortcut: registered from the preference, a taken one reported with a way to
// pick another, the previous working one kept; launch at login and the file-manager
// integration applied from the preferences.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createShortcutManager } from '../../main/electron/global-shortcut';
import type { PreferencesResult } from '../../preload/contract';
import { FakeGlobalShortcut } from './fake-electron';
import { type ShellHarness, startShellHarness } from './shell-harness';

describe('shortcut manager', () => {
  it('keeps the working shortcut when the new one is taken, and reports why', () => {
    const gs = new FakeGlobalShortcut();
    gs.taken.add('Control+Shift+U');
    const presses: number[] = [];
    const m = createShortcutManager({
      globalShortcut: gs,
      onPress: () => presses.push(1),
      platform: 'linux',
    });
    expect(m.apply('Control+Alt+T')).toEqual({ ok: true });
    const refused = m.apply('Control+Shift+U');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(
      /^The shortcut Ctrl\+Shift\+U could not be registered.*Wayland.*Choose another/,
    );
    expect(m.current()).toBe('Control+Alt+T');
    expect([...gs.registered.keys()]).toEqual(['Control+Alt+T']);
    gs.press('Control+Alt+T');
    expect(presses).toEqual([1]);
  });

  it('names a refused shortcut as macOS writes it', () => {
    const gs = new FakeGlobalShortcut();
    gs.taken.add('CommandOrControl+Shift+S');
    const m = createShortcutManager({ globalShortcut: gs, onPress: () => {}, platform: 'darwin' });
    const refused = m.apply('CommandOrControl+Shift+S');
    expect(!refused.ok && refused.error).toMatch(/^The shortcut ⇧⌘S could not be registered/);
  });

  it('refuses a string that is not an accelerator, and turns the shortcut off with an empty one', () => {
    const gs = new FakeGlobalShortcut();
    const m = createShortcutManager({
      globalShortcut: gs,
      onPress: () => undefined,
      platform: 'win32',
    });
    m.apply('Alt+S');
    const bad = m.apply('Ctrl + ?!');
    expect(!bad.ok && bad.error).toMatch(
      /not a shortcut Trayshare understands \(example: Ctrl\+Shift\+U\)/,
    );
    expect(m.apply('')).toEqual({ ok: true });
    expect(gs.registered.size).toBe(0);
  });
});

describe('shortcut in the running shell', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('reports a taken shortcut to the settings page and in a notification; the old one stays', async () => {
    h = await startShellHarness({ taken: ['Control+Shift+X'] });
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const first = (await h.call(main, 'setPreferences', {
      shortcut: 'Control+Alt+U',
    })) as PreferencesResult;
    expect(first.shortcutError).toBeUndefined();
    expect(first.preferences.shortcut).toBe('Control+Alt+U');

    const second = (await h.call(main, 'setPreferences', {
      shortcut: 'Control+Shift+X',
      concurrency: 3,
    })) as PreferencesResult;
    // Written as the OS writes it, not as Electron's accelerator.
    expect(second.shortcutError).toMatch(/The shortcut Ctrl\+Shift\+X could not be registered/);
    // The rest of the change is saved; the shortcut stays the one that works.
    expect(second.preferences).toMatchObject({ shortcut: 'Control+Alt+U', concurrency: 3 });
    expect([...h.shortcut.registered.keys()]).toEqual(['Control+Alt+U']);
    const note = h.notifications.find((n) => n.options.title === 'Shortcut not available');
    expect(note?.options.body).toBe(second.shortcutError);
    note!.click();
    expect(main.webContents.eventsSent('show-view')).toContain('settings');
  });

  it('tells at start when the saved shortcut is taken', async () => {
    h = await startShellHarness({
      preferences: { shortcut: 'Control+Shift+Y' },
      taken: ['Control+Shift+Y'],
    });
    expect(h.notifications.map((n) => n.options.title)).toContain('Shortcut not available');
    expect(h.shortcut.registered.size).toBe(0);
  });

  it('opens the share sheet with copied files, else the drop window (Linux)', async () => {
    h = await startShellHarness({ preferences: { shortcut: 'Control+Alt+S' } });
    h.shortcut.press('Control+Alt+S');
    await vi.waitFor(() => expect(h.windows.byHash('drop-window')).toBeDefined());
    expect(h.windows.byHash('drop-window')!.options).toMatchObject({
      alwaysOnTop: true,
      skipTaskbar: true,
    });

    const [file] = await h.files('copied.pdf');
    h.clipboard.formats.set('text/uri-list', `file://${file}`);
    h.shortcut.press('Control+Alt+S');
    await vi.waitFor(() => expect(h.windows.byHash('share')).toBeDefined());
    expect(h.windows.byHash('share')!.webContents.eventsSent('share-requested')).toEqual([
      { paths: [file] },
    ]);
  });

  it('opens the file picker on macOS when nothing is copied', async () => {
    h = await startShellHarness({
      platform: 'darwin',
      preferences: { shortcut: 'Command+Shift+U' },
    });
    const paths = await h.files('picked.png');
    h.pick(paths);
    h.shortcut.press('Command+Shift+U');
    await vi.waitFor(() => expect(h.windows.byHash('share')).toBeDefined());
    expect(h.windows.byHash('drop-window')).toBeUndefined();
    // Another app was in front when the shortcut was pressed: Trayshare comes forward first,
    // so the picker does not open behind it.
    expect(h.foreground).toEqual(['app focused', 'file picker']);
  });
});

describe('preferences applied to the OS', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('applies launch at login at start (repairs it) and on change', async () => {
    h = await startShellHarness({ preferences: { launchAtLogin: true } });
    expect(h.loginItem).toEqual([true]);
    h.shell.activate();
    await h.call(h.windows.open()[0]!, 'setPreferences', { launchAtLogin: false });
    expect(h.loginItem).toEqual([true, false]);
    // The settings-changed event that follows changes nothing more.
    await vi.waitFor(() =>
      expect(
        h.windows.open()[0]!.webContents.eventsSent('settings-changed').length,
      ).toBeGreaterThan(0),
    );
    expect(h.loginItem).toEqual([true, false]);
  });

  it('repairs an installed file-manager integration at start, and installs/removes it on change', async () => {
    h = await startShellHarness({
      fileManagerIntegration: true,
      preferences: { fileManagerIntegration: true },
    });
    expect(h.integration).toEqual([true]);
    h.shell.activate();
    await h.call(h.windows.open()[0]!, 'setPreferences', { fileManagerIntegration: false });
    expect(h.integration).toEqual([true, false]);
  });

  it('leaves the integration alone at start when it is off', async () => {
    h = await startShellHarness({ fileManagerIntegration: true });
    expect(h.integration).toEqual([]);
  });

  it('pins the drop window: shown at start, kept after a share', async () => {
    h = await startShellHarness({ preferences: { dropWindowPinned: true } });
    const drop = h.windows.byHash('drop-window')!;
    expect(drop.visible).toBe(true);
    const paths = await h.files('pinned.txt');
    await h.call(drop, 'share', { target: { presetId: h.demo!.randomPresetId }, paths });
    expect(drop.visible).toBe(true);
    await h.call(drop, 'setPreferences', { dropWindowPinned: false });
    await h.call(drop, 'share', { target: { presetId: h.demo!.randomPresetId }, paths });
    expect(drop.visible).toBe(false);
  });
});
