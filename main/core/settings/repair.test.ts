import { describe, expect, it } from 'vitest';
import { repairSettings } from './repair';
import { DEFAULT_PREFERENCES, SETTINGS_VERSION } from './schema';

const acme = {
  id: 'w1',
  name: 'Acme',
  baseUrl: 'https://acme.example',
  protocol: 'files.upload',
  maxFileBytes: 1024,
};
const design = {
  id: 'p1',
  name: 'Design',
  workspaceId: 'w1',
  channels: [{ id: 'C0DESIGN', label: 'design' }],
  comment: '',
};
const valid = {
  version: SETTINGS_VERSION,
  workspaces: [acme],
  presets: [design],
  defaultPresetId: 'p1',
  preferences: { ...DEFAULT_PREFERENCES, concurrency: 5 },
};

describe('repairSettings', () => {
  it('valid current settings come back as they are, with nothing to rewrite or report', () => {
    const repair = repairSettings(structuredClone(valid));
    expect(repair).toMatchObject({ problems: [], tokenFields: [], reset: false, rewrite: false });
    expect(repair.settings).toEqual(valid);
  });

  it('a workspace signed in with Slack keeps its fields; tokenExpiresAt is not taken for a token', () => {
    const signedIn = {
      ...acme,
      clientId: '1111111111.2222222222',
      teamId: 'T0ACME',
      auth: 'slack',
      tokenExpiresAt: 1_800_000_000_000,
      userName: 'alice',
      teamName: 'Acme',
    };
    const file = { ...structuredClone(valid), workspaces: [signedIn] };
    const repair = repairSettings(file);
    expect(repair).toMatchObject({ problems: [], tokenFields: [], rewrite: false });
    expect(repair.settings.workspaces[0]).toEqual(signedIn);
  });

  it('a token pasted under a tokenExpiresAt key is still found and removed', () => {
    const file = {
      ...structuredClone(valid),
      workspaces: [{ ...acme, tokenExpiresAt: 'xoxp-1234-pasted' }],
    };
    expect(repairSettings(file).tokenFields).toEqual(['workspaces[0].tokenExpiresAt']);
  });

  it('no file yet: defaults, nothing to report', () => {
    const repair = repairSettings(undefined);
    expect(repair.problems).toEqual([]);
    expect(repair.settings.preferences).toEqual(DEFAULT_PREFERENCES);
    expect(repair.settings.workspaces).toEqual([]);
  });

  it.each([
    ['a list', [1, 2]],
    ['null', null],
    ['a number', 42],
    ['a string', 'hello'],
  ])('a file holding %s is reset whole and reported', (what, data) => {
    const repair = repairSettings(data);
    expect(repair.reset).toBe(true);
    expect(repair.problems.join(' ')).toContain(`it holds ${what}`);
  });

  it('a newer settings version is reset whole, naming both versions', () => {
    const repair = repairSettings({ ...valid, version: SETTINGS_VERSION + 7 });
    expect(repair.reset).toBe(true);
    expect(repair.settings.workspaces).toEqual([]);
    expect(repair.problems[0]).toMatch(
      new RegExp(
        `newer Trayshare \\(settings version ${SETTINGS_VERSION + 7}; this version reads up to ${SETTINGS_VERSION}\\)`,
      ),
    );
  });

  it.each([0, -1, 1.5, '2'])('an unknown version (%j) is reset whole', (version) => {
    const repair = repairSettings({ ...valid, version });
    expect(repair.reset).toBe(true);
    expect(repair.problems[0]).toContain('unknown');
  });

  it('half-valid: keeps valid workspaces and presets, drops and names the broken ones', () => {
    const repair = repairSettings({
      ...valid,
      workspaces: [
        acme,
        { id: 'w2', name: 'Plain', baseUrl: 'http://plain.example' },
        { id: 'w3', name: '', baseUrl: 'https://x.example' },
        { ...acme, id: 'w4', name: 'ACME' },
        'garbage',
      ],
      presets: [
        design,
        { ...design, id: 'p2', name: 'Bad channels', channels: [{ id: 'C 1' }] },
        { ...design, id: 'p3', name: 'Orphan', workspaceId: 'w2' },
      ],
    });
    expect(repair.reset).toBe(false);
    expect(repair.settings.workspaces).toEqual([acme]);
    expect(repair.settings.presets).toEqual([design]);
    expect(repair.settings.defaultPresetId).toBe('p1');
    const text = repair.problems.join('\n');
    expect(text).toMatch(/workspace "Plain" was dropped \(baseUrl: Refusing plain http/);
    expect(text).toMatch(/workspace #3 was dropped/);
    expect(text).toMatch(/workspace "ACME" was dropped \(another workspace has the same name\)/);
    expect(text).toMatch(/workspace #5 was dropped/);
    expect(text).toMatch(
      /preset "Bad channels" was dropped \(channels: Channel ID "C 1" contains a space/,
    );
    expect(text).toMatch(/preset "Orphan" was dropped \(its workspace is missing\)/);
    expect(repair.rewrite).toBe(true);
  });

  it('wrong shapes for whole lists empty only those lists', () => {
    const repair = repairSettings({ ...valid, workspaces: { a: 1 }, presets: 5 });
    expect(repair.settings.workspaces).toEqual([]);
    expect(repair.settings.presets).toEqual([]);
    expect(repair.settings.preferences.concurrency).toBe(5);
    expect(repair.problems).toEqual([
      'the workspace list was not a list, so it was emptied',
      'the preset list was not a list, so it was emptied',
      'the default preset was missing, so there is no default preset now',
    ]);
  });

  it('a file from before update checks existed gets them on, quietly', () => {
    const { checkForUpdates: _new, ...before } = DEFAULT_PREFERENCES;
    const repair = repairSettings({ ...valid, preferences: before });
    expect(repair.settings.preferences.checkForUpdates).toBe(true);
    expect(repair.problems).toEqual([]);
    const off = repairSettings({ ...valid, preferences: { ...before, checkForUpdates: false } });
    expect(off.settings.preferences.checkForUpdates).toBe(false);
  });

  it('a bad preference resets only itself; a missing one takes its default quietly', () => {
    // copyLinkOnDelivery is missing from every file written before that setting existed.
    const {
      fileManagerIntegration: _missing,
      copyLinkOnDelivery: _new,
      ...rest
    } = DEFAULT_PREFERENCES;
    const repair = repairSettings({
      ...valid,
      preferences: { ...rest, concurrency: 42, trayDropAction: 'explode', shortcut: 'Alt+X' },
    });
    expect(repair.settings.preferences).toEqual({ ...DEFAULT_PREFERENCES, shortcut: 'Alt+X' });
    expect(repair.problems).toEqual([
      'the preference "trayDropAction" ("explode") was invalid and was reset to "share-sheet"',
      'the preference "concurrency" (42) was invalid and was reset to 3',
    ]);
  });

  it('a file from before "Detailed logs" opens with them off, quietly', () => {
    const { detailedLogs: _new, ...before } = valid.preferences;
    const repair = repairSettings({ ...valid, preferences: { ...before, detailedLogs: 'yes' } });
    expect(repair.settings.preferences.detailedLogs).toBe(false);
    expect(repair.problems).toEqual([
      'the preference "detailedLogs" ("yes") was invalid and was reset to false',
    ]);
    const quiet = repairSettings({ ...valid, preferences: before });
    expect(quiet.settings.preferences).toEqual({ ...DEFAULT_PREFERENCES, concurrency: 5 });
    expect(quiet.settings.preferences.detailedLogs).toBe(false);
    expect(quiet.problems).toEqual([]);
  });

  it('channels are normalised the way the share sheet does it; the first label wins', () => {
    const repair = repairSettings({
      ...valid,
      presets: [
        {
          ...design,
          channels: [
            { id: ' C1 ', label: ' one ' },
            { id: 'C2', label: '' },
            { id: 'C1', label: 'x' },
          ],
        },
      ],
    });
    expect(repair.problems).toEqual([]);
    expect(repair.settings.presets[0]?.channels).toEqual([
      { id: 'C1', label: 'one' },
      { id: 'C2' },
    ]);
  });

  it('a pasted token is removed, never kept as data, and its place is reported (not its value)', () => {
    const repair = repairSettings({
      ...valid,
      workspaces: [{ ...acme, token: 'xoxb-pasted-secret-123' }],
      presets: [{ ...design, comment: 'xoxp-another-secret-456' }],
    });
    expect(repair.tokenFields).toEqual(['workspaces[0].token', 'presets[0].comment']);
    const serialised = JSON.stringify(repair);
    expect(serialised).not.toContain('pasted-secret');
    expect(serialised).not.toContain('another-secret');
    expect(repair.settings.workspaces).toEqual([acme]);
    expect(repair.settings.presets[0]?.comment).toBe('');
    expect(repair.rewrite).toBe(true);
  });

  it('a hand-written file without a version is read as the current format', () => {
    const { version: _v, ...unversioned } = valid;
    const repair = repairSettings(structuredClone(unversioned));
    expect(repair.problems).toEqual([]);
    expect(repair.settings).toEqual(valid);
    expect(repair.rewrite).toBe(true);
  });
});
