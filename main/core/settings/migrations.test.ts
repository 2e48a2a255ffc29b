import { describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import { repairSettings } from './repair';
import { SETTINGS_VERSION } from './schema';

// A settings file as Trayshare 0.0.x (settings version 1) wrote it.
const v1 = {
  version: 1,
  workspaces: [{ id: 'w1', name: 'Acme', baseUrl: 'https://acme.example' }],
  presets: [
    { id: 'p1', name: 'Design', workspaceId: 'w1', channels: ['C0DESIGN', 'C0GENERAL'] },
    {
      id: 'p2',
      name: 'Random',
      workspaceId: 'w1',
      channels: ['C0RANDOM'],
      comment: 'fyi',
    },
  ],
  defaultPresetId: 'p2',
  preferences: { shortcut: 'Alt+U', concurrency: 2 },
};

describe('settings migrations', () => {
  it('v1 → v2: bare channel IDs become {id} refs; protocol and size limit become explicit', () => {
    const migrated = migrate(structuredClone(v1), 1);
    expect(migrated.version).toBe(2);
    expect(migrated.presets).toEqual([
      {
        id: 'p1',
        name: 'Design',
        workspaceId: 'w1',
        channels: [{ id: 'C0DESIGN' }, { id: 'C0GENERAL' }],
        comment: '',
      },
      {
        id: 'p2',
        name: 'Random',
        workspaceId: 'w1',
        channels: [{ id: 'C0RANDOM' }],
        comment: 'fyi',
      },
    ]);
    expect(migrated.workspaces).toEqual([
      {
        id: 'w1',
        name: 'Acme',
        baseUrl: 'https://acme.example',
        protocol: 'files.upload',
        maxFileBytes: 1024 ** 3,
      },
    ]);
  });

  it('a v1 file loads whole, with no problem reported, and is marked for rewriting as v2', () => {
    const repair = repairSettings(structuredClone(v1));
    expect(repair.problems).toEqual([]);
    expect(repair.rewrite).toBe(true);
    expect(repair.settings.version).toBe(SETTINGS_VERSION);
    expect(repair.settings.presets.map((p) => p.channels)).toEqual([
      [{ id: 'C0DESIGN' }, { id: 'C0GENERAL' }],
      [{ id: 'C0RANDOM' }],
    ]);
    expect(repair.settings.defaultPresetId).toBe('p2');
    expect(repair.settings.preferences).toMatchObject({ shortcut: 'Alt+U', concurrency: 2 });
  });

  it('leaves shapes it does not recognise for the checks that follow', () => {
    const odd = { version: 1, workspaces: 'nope', presets: [7, { channels: 'C1' }] };
    const migrated = migrate(structuredClone(odd), 1);
    expect(migrated).toEqual({
      version: 2,
      workspaces: 'nope',
      presets: [7, { channels: 'C1', comment: '' }],
    });
  });

  it('current-version data passes through unchanged', () => {
    const current = { version: SETTINGS_VERSION, workspaces: [], presets: [] };
    expect(migrate(current, SETTINGS_VERSION)).toEqual(current);
  });
});
