// The settings file on disk: round trips through conf (the CLI) and electron-store (the app),
// migration of an old file, and broken files (kept aside, reset or salvaged, reported).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultShortcut } from '../../main/core/settings/schema';
import type { StoreFactory } from '../../main/core/settings/settings-service';
import {
  type Fixture,
  keptFiles,
  savedDefaultPreset,
  savedPresets,
  savedWorkspaces,
  settingsFixture,
} from './helpers';

// electron-store imports `electron`; outside Electron it only needs app/ipcMain to be absent.
vi.mock('electron', () => ({ default: {} }));

let fx: Fixture;
beforeEach(async () => {
  fx = await settingsFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const ACME = { name: 'Acme', baseUrl: 'https://acme.example/' };

describe('the default shortcut', () => {
  it('avoids Ctrl+Shift+U on Linux, where IBus takes it for Unicode entry', () => {
    expect(defaultShortcut('linux')).toBe('Control+Alt+U');
    expect(defaultShortcut('darwin')).toBe('CommandOrControl+Shift+U');
    expect(defaultShortcut('win32')).toBe('CommandOrControl+Shift+U');
  });
});

describe('settings file round trip', () => {
  it('what one service writes, a fresh one (another process) reads back', async () => {
    const first = fx.open();
    const w = await first.addWorkspace(ACME);
    const p = await first.addPreset({
      name: 'Design',
      workspaceId: w.id,
      channels: [{ id: 'C0DESIGN', label: 'design' }, { id: 'C0GENERAL' }],
      comment: 'For Thursday',
    });
    await first.setPreferences({
      checkForUpdates: false,
      concurrency: 5,
      trayDropAction: 'default-preset',
      copyLinkOnDelivery: true,
    });

    const second = fx.open();
    expect(await savedWorkspaces(second)).toEqual([
      {
        id: w.id,
        name: 'Acme',
        baseUrl: 'https://acme.example',
        protocol: 'files.upload',
        maxFileBytes: 1024 ** 3,
      },
    ]);
    expect(await savedPresets(second)).toEqual([p]);
    expect((await savedDefaultPreset(second))?.id).toBe(p.id);
    expect(second.preferences()).toEqual({
      shortcut: defaultShortcut(process.platform),
      captureShortcut: 'CommandOrControl+Shift+2',
      launchAtLogin: false,
      checkForUpdates: false,
      trayDropAction: 'default-preset',
      dropWindowPinned: false,
      concurrency: 5,
      fileManagerIntegration: false,
      copyLinkOnDelivery: true,
      detailedLogs: false,
      openCapturesInEditor: false,
      sendSmallerEdge: 2560,
      keepMetadata: false,
    });
    expect(second.path).toBe(join(fx.dir, 'config.json'));
    expect(JSON.parse(await fx.configText())).toMatchObject({ version: 2 });
    expect(second.notice()).toBeUndefined();
  });

  it('a running service sees changes another process made to the file', async () => {
    const app = fx.open();
    const cli = fx.open();
    const w = await cli.addWorkspace(ACME);
    expect(app.workspace(w.id)?.name).toBe('Acme');
    await app.updateWorkspace(w.id, { name: 'Acme Corp' });
    expect(cli.workspaceByName('acme corp')?.id).toBe(w.id);
  });

  it('the app (electron-store) and the CLI (conf) share one file', async () => {
    const { default: ElectronStore } = await import('electron-store');
    const electronStoreFactory: StoreFactory = (options) =>
      new ElectronStore<Record<string, unknown>>(options);
    const app = fx.open({ storeFactory: electronStoreFactory });
    const cli = fx.open();
    expect(app.path).toBe(cli.path);

    const w = await cli.addWorkspace(ACME);
    await cli.addPreset({
      name: 'Design',
      workspaceId: w.id,
      channels: [{ id: 'C1' }],
      comment: '',
    });
    expect(app.findPreset('design').workspaceId).toBe(w.id);
    await app.setPreferences({ launchAtLogin: true });
    expect(cli.preferences().launchAtLogin).toBe(true);
  });

  it('a settings file of version 1 is migrated, rewritten as version 2, with nothing to report', async () => {
    const v1 = {
      version: 1,
      workspaces: [{ id: 'w1', name: 'Acme', baseUrl: 'https://acme.example' }],
      presets: [
        { id: 'p1', name: 'Design', workspaceId: 'w1', channels: ['C0DESIGN', 'C0GENERAL'] },
      ],
      defaultPresetId: 'p1',
      preferences: { concurrency: 4 },
    };
    await writeFile(join(fx.dir, 'config.json'), JSON.stringify(v1));
    const settings = fx.open();
    expect(settings.preset('p1')?.channels).toEqual([{ id: 'C0DESIGN' }, { id: 'C0GENERAL' }]);
    expect(settings.preferences().concurrency).toBe(4);
    expect(settings.notice()).toBeUndefined();
    expect(await keptFiles(fx.dir)).toEqual([]);
    const onDisk = JSON.parse(await fx.configText());
    expect(onDisk.version).toBe(2);
    expect(onDisk.presets[0].channels).toEqual([{ id: 'C0DESIGN' }, { id: 'C0GENERAL' }]);
    expect(onDisk.workspaces[0]).toMatchObject({ protocol: 'files.upload' });
  });
});

describe('a broken settings file never crashes anything', () => {
  async function breakWith(text: string): Promise<void> {
    await writeFile(join(fx.dir, 'config.json'), text);
  }

  it('invalid JSON: reset to defaults, the bad file kept byte for byte, the notice names it', async () => {
    const bad = '{"version": 2, "workspaces": [{"id": ';
    await breakWith(bad);
    const settings = fx.open();
    const snapshot = await settings.getSnapshot();
    expect(snapshot.workspaces).toEqual([]);
    expect(snapshot.preferences.concurrency).toBe(3);
    const kept = await keptFiles(fx.dir);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^config\.json\.damaged-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(await readFile(join(fx.dir, kept[0] as string), 'utf8')).toBe(bad);
    expect(snapshot.settingsNotice).toContain(join(fx.dir, kept[0] as string));
    expect(snapshot.settingsNotice).toMatch(/not valid JSON/);
    expect(snapshot.settingsNotice).toMatch(/reset to their defaults/);
    expect(settings.notice()).toBe(snapshot.settingsNotice);
    // The replacement is a valid settings file, and the service keeps working.
    expect(JSON.parse(await fx.configText())).toMatchObject({ version: 2, workspaces: [] });
    await settings.addWorkspace(ACME);
    expect(fx.open().workspaceByName('Acme')).toBeDefined();
  });

  it.each([
    ['a JSON list', '[1, 2, 3]', /holds a list/],
    ['null', 'null', /holds null/],
    [
      'a newer version',
      '{"version": 99, "workspaces": []}',
      /newer Trayshare \(settings version 99/,
    ],
    ['an unknown version', '{"version": "two"}', /settings version "two" is unknown/],
  ])('%s: reset, kept, reported', async (_what, text, reason) => {
    await breakWith(text);
    const settings = fx.open();
    expect(await savedWorkspaces(settings)).toEqual([]);
    const kept = await keptFiles(fx.dir);
    expect(kept).toHaveLength(1);
    expect(await readFile(join(fx.dir, kept[0] as string), 'utf8')).toBe(text);
    expect(settings.notice()).toMatch(reason);
    expect(settings.notice()).toContain(kept[0]);
  });

  it('wrong shapes: only the broken lists are emptied; preferences survive', async () => {
    await breakWith(
      JSON.stringify({
        version: 2,
        workspaces: { Acme: 'https://acme.example' },
        preferences: { concurrency: 6 },
      }),
    );
    const settings = fx.open();
    expect(await savedWorkspaces(settings)).toEqual([]);
    expect(settings.preferences().concurrency).toBe(6);
    expect(settings.notice()).toMatch(/the workspace list was not a list, so it was emptied/);
    expect(await keptFiles(fx.dir)).toHaveLength(1);
  });

  it('half-valid: valid workspaces and presets are kept, the broken ones named', async () => {
    await breakWith(
      JSON.stringify({
        version: 2,
        workspaces: [
          { id: 'w1', name: 'Acme', baseUrl: 'https://acme.example' },
          { id: 'w2', name: 'Sneaky', baseUrl: 'http://sneaky.example' },
        ],
        presets: [
          { id: 'p1', name: 'Design', workspaceId: 'w1', channels: [{ id: 'C0DESIGN' }] },
          { id: 'p2', name: 'Leaky', workspaceId: 'w2', channels: [{ id: 'C0X' }] },
          { id: 'p3', name: 'Commas', workspaceId: 'w1', channels: [{ id: 'C1,C2' }] },
        ],
        defaultPresetId: 'p2',
        preferences: { concurrency: 99 },
      }),
    );
    const settings = fx.open();
    expect((await savedWorkspaces(settings)).map((w) => w.name)).toEqual(['Acme']);
    expect((await savedPresets(settings)).map((p) => p.name)).toEqual(['Design']);
    expect(await savedDefaultPreset(settings)).toBeUndefined();
    expect(settings.preferences().concurrency).toBe(3);
    const notice = settings.notice() ?? '';
    expect(notice).toMatch(/workspace "Sneaky" was dropped \(baseUrl: Refusing plain http/);
    expect(notice).toMatch(/preset "Leaky" was dropped \(its workspace is missing\)/);
    expect(notice).toMatch(
      /preset "Commas" was dropped \(channels: Channel ID "C1,C2" contains a comma/,
    );
    expect(notice).toMatch(/the default preset was missing/);
    expect(notice).toMatch(/"concurrency" \(99\) was invalid and was reset to 3/);
    expect(notice).toMatch(/Everything else was kept/);
    expect(notice).toMatch(/config\.json\.damaged-/);
    // Repaired once: the next reader finds a clean file and reports nothing.
    expect(fx.open().notice()).toBeUndefined();
    expect(await keptFiles(fx.dir)).toHaveLength(1);
  });

  it('a second breakage later gets its own kept file; no kept file is ever overwritten', async () => {
    let clock = Date.UTC(2025, 10, 21, 22, 41, 3, 120);
    const now = () => clock;
    await breakWith('{oops');
    fx.open({ now }).preferences();
    await breakWith('{oops again');
    fx.open({ now }).preferences();
    clock += 1000;
    await breakWith('{and again');
    fx.open({ now }).preferences();
    const kept = await keptFiles(fx.dir);
    expect(kept).toEqual([
      'config.json.damaged-2025-11-21T22-41-03-120Z',
      'config.json.damaged-2025-11-21T22-41-03-120Z-2',
      'config.json.damaged-2025-11-21T22-41-04-120Z',
    ]);
    expect(await readFile(join(fx.dir, kept[0] as string), 'utf8')).toBe('{oops');
    expect(await readFile(join(fx.dir, kept[1] as string), 'utf8')).toBe('{oops again');
  });

  it('a token pasted into the file is never used as a token, and is removed from disk', async () => {
    const pasted = 'xoxb-pasted-by-hand-0000';
    await breakWith(
      JSON.stringify({
        version: 2,
        workspaces: [{ id: 'w1', name: 'Acme', baseUrl: 'https://acme.example', token: pasted }],
        presets: [],
      }),
    );
    const settings = fx.open();
    expect(settings.workspace('w1')).toMatchObject({ name: 'Acme' });
    expect(await settings.token(settings.workspace('w1')!)).toBeNull();
    const snapshot = await settings.getSnapshot();
    expect(snapshot.workspaces[0]?.hasToken).toBe(false);
    expect(JSON.stringify(snapshot)).not.toContain(pasted);
    expect(snapshot.settingsNotice).toMatch(
      /token was found in the settings file \(at workspaces\[0\]\.token\)/,
    );
    expect(snapshot.settingsNotice).toMatch(/removed without being used/);
    for (const file of await fx.files()) {
      expect(file.bytes.includes(pasted), file.path).toBe(false);
    }
  });

  it('a token in a broken file: the kept copy has it blanked, the rest kept for the person', async () => {
    const pasted = 'xoxp-1234-pasted-secret';
    const bad = `{"version": 2, "workspaces": [{"id": "w1", "name": "Acme", "accessToken": "${pasted}" `;
    await breakWith(bad);
    const settings = fx.open();
    expect(await savedWorkspaces(settings)).toEqual([]);
    const kept = await keptFiles(fx.dir);
    expect(kept).toHaveLength(1);
    const keptText = await readFile(join(fx.dir, kept[0] as string), 'utf8');
    expect(keptText).toContain('"name": "Acme"');
    expect(keptText).toContain('removed by Trayshare');
    for (const file of await fx.files()) {
      expect(file.bytes.includes(pasted), file.path).toBe(false);
    }
  });

  it('an empty file (a crash between create and write) is simply no settings yet', async () => {
    await breakWith('');
    const settings = fx.open();
    expect(await savedWorkspaces(settings)).toEqual([]);
    expect(settings.notice()).toBeUndefined();
    expect(await keptFiles(fx.dir)).toEqual([]);
  });
});
