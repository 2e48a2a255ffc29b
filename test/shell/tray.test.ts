// The tray: its menu built from presets and recent uploads, its actions reaching the service,
// its icon, tooltip and progress following the queue, and macOS drops on the icon.
import { writeFile } from 'node:fs/promises';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildTrayMenu,
  type TrayMenuActions,
  type TrayMenuModel,
} from '../../main/electron/tray-menu';
import { trayStatus } from '../../main/electron/tray-status';
import type { HistoryEntry, Preset, QueueItem, WorkspaceView } from '../../preload/contract';
import { type ShellHarness, startShellHarness } from './shell-harness';

const workspaces: WorkspaceView[] = [
  {
    id: 'w1',
    name: 'Acme',
    baseUrl: 'https://acme.example',
    protocol: 'files.upload',
    maxFileBytes: 1,
    hasToken: true,
  },
  {
    id: 'w2',
    name: 'Side & Co',
    baseUrl: 'https://side.example',
    protocol: 'files.upload',
    maxFileBytes: 1,
    hasToken: false,
  },
];
const presets: Preset[] = [
  { id: 'p1', name: 'Design', workspaceId: 'w1', channels: [{ id: 'C1' }], comment: '' },
  { id: 'p2', name: 'R&D', workspaceId: 'w2', channels: [{ id: 'C2' }], comment: '' },
  { id: 'p3', name: 'Empty', workspaceId: 'w1', channels: [], comment: '' },
];
const entry = (id: string, extra: Partial<HistoryEntry>): HistoryEntry => ({
  id,
  at: 1,
  workspaceId: 'w1',
  workspaceName: 'Acme',
  channels: ['C1'],
  comment: '',
  path: `/f/${id}`,
  name: `${id}.png`,
  size: 1,
  outcome: 'delivered',
  ...extra,
});

function model(extra: Partial<TrayMenuModel> = {}): TrayMenuModel {
  return {
    status: trayStatus([], { paused: false, needsToken: 0 }),
    presets,
    workspaces,
    defaultPresetId: 'p1',
    paused: false,
    recent: [
      entry('shot', { permalink: 'https://acme.example/files/shot' }),
      entry('nolink', {}),
      entry('failed', { outcome: 'failed' }),
    ],
    describeChannels: (ids) => ids.map((id) => (id === 'C1' ? '#general' : id)).join(', '),
    hasDropWindow: true,
    dropWindowPinned: false,
    ...extra,
  };
}

function spyActions() {
  return {
    shareFiles: vi.fn(),
    shareClipboard: vi.fn(),
    openWindow: vi.fn(),
    showDropWindow: vi.fn(),
    setDropWindowPinned: vi.fn(),
    copyLink: vi.fn(),
    capture: vi.fn(),
    setPaused: vi.fn(),
    restartToUpdate: vi.fn(),
    cancelRestart: vi.fn(),
    quit: vi.fn(),
  } satisfies TrayMenuActions;
}

function find(items: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions {
  for (const i of items) {
    if (i.id === id) return i;
    if (Array.isArray(i.submenu)) {
      try {
        return find(i.submenu as MenuItemConstructorOptions[], id);
      } catch {}
    }
  }
  throw new Error(`no ${id}`);
}
const click = (i: MenuItemConstructorOptions) => (i.click as () => void)();

describe('tray menu', () => {
  it('offers "Restart to update to X" once an update is downloaded, and the wait with a cancel', () => {
    expect(() => find(buildTrayMenu(model(), spyActions()), 'update-restart')).toThrow();
    const actions = spyActions();
    const ready = buildTrayMenu(
      model({ update: { restartLabel: 'Restart to update to 1.2.0' } }),
      actions,
    );
    expect(ready[1]).toMatchObject({ id: 'update-restart', label: 'Restart to update to 1.2.0' });
    click(find(ready, 'update-restart'));
    expect(actions.restartToUpdate).toHaveBeenCalledOnce();

    const waiting = buildTrayMenu(
      model({
        update: {
          restartLabel: 'Restart to update to 1.2.0',
          waiting: 'Restarting when the 3 uploads finish…',
        },
      }),
      actions,
    );
    expect(() => find(waiting, 'update-restart')).toThrow();
    expect(find(waiting, 'update-waiting')).toMatchObject({
      label: 'Restarting when the 3 uploads finish…',
      enabled: false,
    });
    click(find(waiting, 'update-cancel'));
    expect(actions.cancelRestart).toHaveBeenCalledOnce();
  });

  it('offers every preset for files and for the clipboard, named with workspace and default', () => {
    const menu = buildTrayMenu(model(), spyActions());
    const files = find(menu, 'share-files').submenu as MenuItemConstructorOptions[];
    const labels = files.filter((i) => i.id?.startsWith('preset:')).map((i) => i.label);
    // Two workspaces: the workspace is named; & is escaped so it is not a mnemonic.
    expect(labels).toEqual(['Design · Acme (default)', 'R&&D · Side && Co', 'Empty · Acme']);
    const clip = find(menu, 'share-clipboard').submenu as MenuItemConstructorOptions[];
    expect(clip.filter((i) => i.id?.startsWith('preset:'))).toHaveLength(3);
  });

  it('offers Capture… after the share items where this build can capture, and it captures', () => {
    const actions = spyActions();
    const menu = buildTrayMenu(model({ canCapture: true }), actions);
    const ids = menu.map((i) => i.id);
    expect(ids.indexOf('capture')).toBe(ids.indexOf('share-clipboard') + 1);
    expect(find(menu, 'capture').label).toBe('Capture…');
    click(find(menu, 'capture'));
    expect(actions.capture).toHaveBeenCalledOnce();
    expect(buildTrayMenu(model(), actions).some((i) => i.id === 'capture')).toBe(false);
  });

  it('disables presets that cannot send yet (no token, no channels)', () => {
    const files = find(buildTrayMenu(model(), spyActions()), 'share-files')
      .submenu as MenuItemConstructorOptions[];
    const enabled = Object.fromEntries(
      files.filter((i) => i.id).map((i) => [i.id, i.enabled ?? true]),
    );
    expect(enabled).toMatchObject({
      'preset:p1': true,
      'preset:p2': false,
      'preset:p3': false,
      'share-sheet': true,
    });
  });

  it('calls the right action for each item', () => {
    const actions = spyActions();
    const menu = buildTrayMenu(model(), actions);
    click(find(find(menu, 'share-files').submenu as MenuItemConstructorOptions[], 'preset:p1'));
    expect(actions.shareFiles).toHaveBeenCalledWith('p1');
    click((find(menu, 'share-clipboard').submenu as MenuItemConstructorOptions[]).at(-1)!);
    expect(actions.shareClipboard).toHaveBeenCalledWith(null);
    click(find(menu, 'recent:shot'));
    expect(actions.copyLink).toHaveBeenCalledWith('https://acme.example/files/shot');
    click(find(menu, 'pause'));
    expect(actions.setPaused).toHaveBeenCalledWith(true);
    click(find(menu, 'open'));
    expect(actions.openWindow).toHaveBeenLastCalledWith();
    click(find(menu, 'settings'));
    expect(actions.openWindow).toHaveBeenLastCalledWith('settings');
    click(find(menu, 'history'));
    expect(actions.openWindow).toHaveBeenLastCalledWith('history');
    click(find(menu, 'drop-window'));
    expect(actions.showDropWindow).toHaveBeenCalled();
    click(find(menu, 'drop-window-pinned'));
    expect(actions.setDropWindowPinned).toHaveBeenCalledWith(true);
    click(find(menu, 'quit'));
    expect(actions.quit).toHaveBeenCalled();
  });

  it('lists delivered uploads only; one without a link is shown but disabled', () => {
    const recent = find(buildTrayMenu(model(), spyActions()), 'recent')
      .submenu as MenuItemConstructorOptions[];
    const items = recent.filter((i) => i.id?.startsWith('recent:'));
    expect(items.map((i) => [i.label, i.enabled])).toEqual([
      ['shot.png → #general', true],
      ['nolink.png → #general', false],
    ]);
  });

  it('says so when there is nothing yet, and offers Resume when paused', () => {
    const menu = buildTrayMenu(model({ presets: [], recent: [], paused: true }), spyActions());
    expect(find(menu, 'no-presets').enabled).toBe(false);
    expect(find(menu, 'no-recent').enabled).toBe(false);
    expect(find(menu, 'pause').label).toBe('Resume uploads');
  });

  it('has no drop-window items on macOS', () => {
    const menu = buildTrayMenu(model({ hasDropWindow: false }), spyActions());
    expect(() => find(menu, 'drop-window')).toThrow();
  });
});

describe('tray status', () => {
  const item = (state: QueueItem['state'], size: number, sent: number): QueueItem =>
    ({ state, size, sent }) as QueueItem;

  it('says a signed-in workspace needs a sign-in, not a token', () => {
    expect(trayStatus([], { paused: false, needsToken: 1, needsSignIn: 1 })).toMatchObject({
      state: 'attention',
      summary: 'A workspace needs you to sign in again',
    });
    expect(trayStatus([], { paused: false, needsToken: 2, needsSignIn: 1 }).summary).toBe(
      'A workspace needs you to sign in again; a workspace needs a new token',
    );
  });

  it('is idle, uploading with the share of bytes sent, or asks for attention', () => {
    expect(trayStatus([], { paused: false, needsToken: 0 })).toMatchObject({
      state: 'idle',
      percent: null,
      summary: 'Ready to share',
    });
    const uploading = trayStatus(
      [item('sending', 100, 50), item('queued', 300, 0), item('delivered', 9, 9)],
      {
        paused: false,
        needsToken: 0,
      },
    );
    expect(uploading).toMatchObject({
      state: 'uploading',
      percent: 12,
      active: 2,
      summary: 'Uploading 2 files, 12%',
      // The menu's line leaves the percentage to the tooltip.
      menuSummary: 'Uploading 2 files',
    });
    expect(trayStatus([item('failed', 1, 0)], { paused: false, needsToken: 0 })).toMatchObject({
      state: 'attention',
      summary: '1 upload needs attention',
    });
    expect(trayStatus([], { paused: false, needsToken: 1 }).state).toBe('attention');
  });
});

describe('tray in the running shell', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('shares picked files to the preset chosen in the menu', async () => {
    h = await startShellHarness();
    const paths = await h.files('menu pick.txt');
    h.pick(paths);
    h.tray.click(`preset:${h.demo!.designPresetId}`);
    await vi.waitFor(() => expect(h.reference.uploads()).toHaveLength(1));
    expect(h.reference.uploads()[0]).toMatchObject({
      name: 'menu pick.txt',
      channels: ['C0DESIGN', 'C0GENERAL'],
    });
    // Linux and Windows bring the picker forward themselves.
    expect(h.foreground).toEqual(['file picker']);
  });

  it('on macOS, comes forward before opening the picker from the menu bar', async () => {
    h = await startShellHarness({ platform: 'darwin' });
    const paths = await h.files('menu pick.png');
    h.pick(paths);
    h.tray.click(`preset:${h.demo!.designPresetId}`);
    await vi.waitFor(() => expect(h.reference.uploads()).toHaveLength(1));
    expect(h.foreground).toEqual(['app focused', 'file picker']);
  });

  it('shares the files on the clipboard, and explains when the clipboard holds plain text', async () => {
    h = await startShellHarness();
    const [path] = await h.files('copied.txt');
    h.clipboard.formats.set('text/uri-list', `file://${encodeURI(path!)}\r\n`);
    const clipMenu = h.tray.item('share-clipboard').submenu as MenuItemConstructorOptions[];
    (clipMenu.find((i) => i.id === `preset:${h.demo!.randomPresetId}`)!.click as () => void)();
    await vi.waitFor(() =>
      expect(h.reference.uploads().map((u) => u.name)).toContain('copied.txt'),
    );

    h.clipboard.formats.clear();
    h.clipboard.text = 'just some words';
    (clipMenu.find((i) => i.id === 'share-sheet')!.click as () => void)();
    await vi.waitFor(() =>
      expect(h.notifications.map((n) => n.options.title)).toContain(
        'Nothing to share on the clipboard',
      ),
    );
    const note = h.notifications.find(
      (n) => n.options.title === 'Nothing to share on the clipboard',
    )!;
    expect(note.options.body).toMatch(/holds text.*shares files and images only/);
  });

  it('pauses and resumes through the service, and the menu follows', async () => {
    h = await startShellHarness();
    h.tray.click('pause');
    await vi.waitFor(() => expect(h.tray.item('pause').label).toBe('Resume uploads'));
    expect((await h.service.getSnapshot()).paused).toBe(true);
    h.tray.click('pause');
    await vi.waitFor(() => expect(h.tray.item('pause').label).toBe('Pause uploads'));
  });

  it('lists a delivered upload under Recent uploads and copies its link', async () => {
    h = await startShellHarness();
    const paths = await h.files('linked.png');
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await h.service.settled();
    const recent = await vi.waitFor(() => {
      const items = (h.tray.item('recent').submenu as MenuItemConstructorOptions[]).filter((i) =>
        i.id?.startsWith('recent:'),
      );
      expect(items).toHaveLength(1);
      return items[0]!;
    });
    // By name, from the workspace's conversation list, not as the IDs the service takes.
    expect(recent.label).toBe('linked.png → #design-review, #general');
    (recent.click as () => void)();
    const [history] = await h.service.listHistory({ limit: 1 });
    expect(h.clipboard.written).toEqual([history!.permalink]);
  });

  it('shows progress in the tray and the taskbar while uploading, and returns to idle', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    expect(h.tray.image).toBe('/icons/tray-idle.png');
    // The service holds its answer: the whole file is sent and the item is still sending.
    h.reference.injectFault({ fault: { kind: 'slow', delayMs: 800 } });
    const paths = await h.files('progress.txt');
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await vi.waitFor(() => expect(h.tray.toolTip).toBe('Trayshare: Uploading 1 file, 100%'));
    expect(h.tray.image).toBe('/icons/tray-uploading.png');
    expect(main.progress).toEqual({ value: 1, mode: 'normal' });
    await h.service.settled();
    await vi.waitFor(() => expect(h.tray.image).toBe('/icons/tray-idle.png'));
    expect(main.progress.value).toBe(-1);
  });

  it('says uploads are paused, without a moving number', async () => {
    h = await startShellHarness();
    await h.service.setPaused(true);
    const paths = await h.files('wait.txt');
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await vi.waitFor(() => expect(h.tray.toolTip).toBe('Trayshare: 1 upload paused'));
    h.shell.activate();
    expect(h.windows.open()[0]!.progress.value).toBe(-1);
  });

  it('asks for attention when an upload fails', async () => {
    h = await startShellHarness();
    h.reference.injectFault({ fault: { kind: 'error', error: 'channel_not_found' } });
    const paths = await h.files('doomed.txt');
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await h.service.settled();
    await vi.waitFor(() => expect(h.tray.image).toBe('/icons/tray-attention.png'));
    expect(h.tray.toolTip).toBe('Trayshare: 1 upload needs attention');
  });

  it('sets a new context menu only when its items change, not on each percent of an upload', async () => {
    h = await startShellHarness({ platform: 'linux' });
    h.reference.injectFault({ fault: { kind: 'slow', delayMs: 400 } });
    const [path] = await h.files('big.bin');
    await writeFile(path!, Buffer.alloc(8 * 1024 * 1024, 7));
    const before = h.tray.menusSet.length;
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths: [path!] });
    await h.service.settled();
    await vi.waitFor(() => expect(h.tray.item('status').label).toBe('Ready to share'));

    // The upload was seen going forward: the tooltip told more than one percentage.
    const percents = new Set(
      h.tray.toolTips.map((t) => /, (\d+)%$/.exec(t)?.[1]).filter((p) => p !== undefined),
    );
    expect(percents.size).toBeGreaterThan(1);
    // Yet the menu never carries a percentage, and no menu was set twice in a row unchanged
    // (on Linux each new menu can close the one the person has open).
    const menus = h.tray.menusSet.slice(before);
    expect(menus.map((m) => find(m, 'status').label)).not.toContainEqual(
      expect.stringMatching(/%/),
    );
    const shown = menus.map((m) =>
      JSON.stringify(m, (_k, v: unknown) => (typeof v === 'function' ? undefined : v)),
    );
    for (let i = 1; i < shown.length; i++) expect(shown[i]).not.toBe(shown[i - 1]);
    expect(menus.map((m) => find(m, 'status').label)).toContain('Uploading 1 file');
  });
});

describe('macOS tray drop', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('sends dropped files straight to the default preset when that is the setting', async () => {
    h = await startShellHarness({
      platform: 'darwin',
      preferences: { trayDropAction: 'default-preset' },
    });
    expect(h.tray.image).toBe('/icons/trayTemplate.png');
    const paths = await h.files('dropped on tray.png');
    h.tray.dropFiles(paths);
    await vi.waitFor(() => expect(h.reference.uploads()).toHaveLength(1));
    // The default preset of the demo is "Design review": C0DESIGN and C0GENERAL.
    expect(h.reference.uploads()[0]).toMatchObject({
      name: 'dropped on tray.png',
      channels: ['C0DESIGN', 'C0GENERAL'],
    });
    expect(h.windows.open()).toHaveLength(0);
  });

  it('opens the share sheet with the dropped files otherwise', async () => {
    h = await startShellHarness({
      platform: 'darwin',
      preferences: { trayDropAction: 'share-sheet' },
    });
    const paths = await h.files('a.png', 'b.png');
    h.tray.dropFiles(paths);
    const main = h.windows.byHash('share');
    expect(main).toBeDefined();
    expect(main!.webContents.eventsSent('share-requested')).toEqual([{ paths }]);
    expect(h.reference.uploads()).toHaveLength(0);
  });

  it('falls back to the share sheet when there is no default preset', async () => {
    h = await startShellHarness({
      platform: 'darwin',
      preferences: { trayDropAction: 'default-preset' },
    });
    await h.service.setDefaultPreset(null);
    await vi.waitFor(() =>
      expect(h.tray.item(`preset:${h.demo!.designPresetId}`).label).toBe('Design review'),
    );
    const paths = await h.files('c.png');
    h.tray.dropFiles(paths);
    expect(h.windows.byHash('share')!.webContents.eventsSent('share-requested')).toEqual([
      { paths },
    ]);
    expect(h.reference.uploads()).toHaveLength(0);
  });

  it('shows the percentage as the menu-bar title while uploading, none when paused', async () => {
    h = await startShellHarness({ platform: 'darwin' });
    h.reference.injectFault({ fault: { kind: 'slow', delayMs: 800 } });
    const paths = await h.files('slow.png');
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await vi.waitFor(() => expect(h.tray.title).toBe('100%'));
    expect(h.tray.image).toBe('/icons/trayUploadingTemplate.png');
    await h.service.settled();
    await vi.waitFor(() => expect(h.tray.title).toBe(''));
    await h.service.setPaused(true);
    await h.service.share({ target: { presetId: h.demo!.designPresetId }, paths });
    await vi.waitFor(() => expect(h.tray.image).toBe('/icons/trayUploadingTemplate.png'));
    expect(h.tray.title).toBe('');
  });
});
