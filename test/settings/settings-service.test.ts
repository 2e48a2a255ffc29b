// The settings service as the app and the CLI use it: workspace, token and preset rules, the
// snapshot, and "test connection" against the reference service. Tokens go to the real
// gnome-keyring (run through `bash test/with-keyring.sh`); keychain failures are injected.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addPresetFromText, login, logout } from '../../main/cli/settings-by-name';
import { KeychainError, type SecretStore } from '../../main/core/secrets/secret-store';
import { accessAccount } from '../../main/core/secrets/workspace-secrets';
import type { SettingsService } from '../../main/core/settings/settings-service';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import {
  type Fixture,
  savedDefaultPreset,
  savedPresets,
  savedWorkspaces,
  settingsFixture,
} from './helpers';

const TOKEN = 'xoxb-test-token';
const ACME = { name: 'Acme', baseUrl: 'https://acme.example' };
const channels = (...ids: string[]) => ids.map((id) => ({ id }));

let fx: Fixture;
let settings: SettingsService;
beforeEach(async () => {
  fx = await settingsFixture();
  settings = fx.open();
});
afterEach(async () => {
  await fx.cleanup();
});

function failingSecrets(problem: KeychainError['problem'], message: string): SecretStore {
  const fail = async (): Promise<never> => {
    throw new KeychainError(problem, message);
  };
  return { get: fail, set: fail, delete: fail };
}

describe('workspaces', () => {
  it('adds a workspace with a random id, defaults, and a tidy base URL', async () => {
    const w = await settings.addWorkspace({ name: '  Acme  ', baseUrl: ' https://acme.example/ ' });
    expect(w).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme',
      baseUrl: 'https://acme.example',
      protocol: 'files.upload',
      maxFileBytes: 1024 ** 3,
    });
    const other = await settings.addWorkspace({ name: 'Other', baseUrl: 'https://other.example' });
    expect(other.id).not.toBe(w.id);
  });

  it('refuses a second workspace with the same name, whatever the case', async () => {
    await settings.addWorkspace(ACME);
    await expect(settings.addWorkspace({ ...ACME, name: 'ACME' })).rejects.toMatchObject({
      code: 'duplicate_name',
      message: 'There is already a workspace named "Acme".',
    });
  });

  it.each([
    ['http://acme.example', /Refusing plain http to acme\.example/],
    ['https://hooks.slack.com/services/T1/B2/xyz', /incoming-webhook address/],
    ['acme.example', /is not a URL/],
    ['https://user:pw@acme.example', /must not contain a user name or password/],
  ])('refuses the base URL %s with a message that says why', async (baseUrl, message) => {
    await expect(settings.addWorkspace({ name: 'X', baseUrl })).rejects.toThrow(message);
    expect(await savedWorkspaces(settings)).toEqual([]);
  });

  it('allows plain http only on loopback', async () => {
    const w = await settings.addWorkspace({ name: 'Local', baseUrl: 'http://127.0.0.1:8080' });
    expect(w.baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('refuses input outside the API schema (unknown fields, empty names)', async () => {
    await expect(
      settings.addWorkspace({ ...ACME, token: TOKEN } as unknown as typeof ACME),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(settings.addWorkspace({ ...ACME, name: '   ' })).rejects.toThrow(
      'Give the workspace a name.',
    );
  });

  it('renames and edits; names stay unique', async () => {
    const a = await settings.addWorkspace(ACME);
    await settings.addWorkspace({ name: 'Other', baseUrl: 'https://other.example' });
    await expect(settings.updateWorkspace(a.id, { name: 'other' })).rejects.toMatchObject({
      code: 'duplicate_name',
    });
    const renamed = await settings.updateWorkspace(a.id, {
      name: 'Acme Corp',
      protocol: 'external',
      maxFileBytes: 1000,
    });
    expect(renamed).toMatchObject({ name: 'Acme Corp', protocol: 'external', maxFileBytes: 1000 });
    expect(settings.workspace(a.id)).toMatchObject({ name: 'Acme Corp', protocol: 'external' });
    await expect(settings.updateWorkspace('nope', { name: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('a token never follows the workspace to another origin; the same origin keeps it', async () => {
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, TOKEN);
    const samePlace = await settings.updateWorkspace(w.id, { baseUrl: 'https://acme.example/v2' });
    expect(samePlace.tokenCleared).toBe(false);
    expect(await settings.token(settings.workspace(w.id)!)).toBe(TOKEN);
    const moved = await settings.updateWorkspace(w.id, { baseUrl: 'https://elsewhere.example' });
    expect(moved.tokenCleared).toBe(true);
    expect(await settings.token(settings.workspace(w.id)!)).toBeNull();
  });

  it('removing a workspace deletes its token and its presets, and says so', async () => {
    const w = await settings.addWorkspace(ACME);
    const keep = await settings.addWorkspace({ name: 'Keep', baseUrl: 'https://keep.example' });
    await settings.setToken(w.id, TOKEN);
    await settings.setToken(keep.id, 'xoxb-keep-token');
    const design = await settings.addPreset({
      name: 'Design',
      workspaceId: w.id,
      channels: channels('C1'),
      comment: '',
    });
    await settings.addPreset({
      name: 'Random',
      workspaceId: w.id,
      channels: channels('C2'),
      comment: '',
    });
    const kept = await settings.addPreset({
      name: 'Kept',
      workspaceId: keep.id,
      channels: channels('C3'),
      comment: '',
    });
    expect((await savedDefaultPreset(settings))?.id).toBe(design.id);

    const result = await settings.removeWorkspaceWithSummary(w.id);
    expect(result.token).toBe('removed');
    expect(result.presetsRemoved.map((p) => p.name)).toEqual(['Design', 'Random']);
    expect(result.message).toBe(
      'Removed workspace Acme: its token was deleted from the keychain, and its 2 presets (Design, Random) were removed.',
    );
    expect(await fx.secrets.get(accessAccount(w))).toBeNull();
    expect((await savedWorkspaces(settings)).map((x) => x.name)).toEqual(['Keep']);
    expect(await savedPresets(settings)).toEqual([kept]);
    expect(await savedDefaultPreset(settings)).toBeUndefined();
    expect(await fx.secrets.get(accessAccount(keep))).toBe('xoxb-keep-token');
  });

  it('the core API removeWorkspace does the same and resolves to nothing', async () => {
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, TOKEN);
    await expect(settings.removeWorkspace(w.id)).resolves.toBeUndefined();
    expect(await fx.secrets.get(accessAccount(w))).toBeNull();
    expect(await savedWorkspaces(settings)).toEqual([]);
  });

  it('a locked keychain stops the removal, so the token is never left behind', async () => {
    const w = await settings.addWorkspace(ACME);
    const locked = fx.open({ secrets: failingSecrets('locked', 'The keyring is locked.') });
    await expect(locked.removeWorkspace(w.id)).rejects.toThrow('The keyring is locked.');
    expect(settings.workspace(w.id)).toBeDefined();
  });

  it('with no keychain at all, the workspace can still be removed (no token can exist there)', async () => {
    const w = await settings.addWorkspace(ACME);
    const none = fx.open({ secrets: failingSecrets('no-secret-service', 'No Secret Service.') });
    const result = await none.removeWorkspaceWithSummary(w.id);
    expect(result.token).toBe('unknown');
    expect(result.message).toMatch(/no keychain was reachable/);
    expect(await savedWorkspaces(settings)).toEqual([]);
  });
});

describe('tokens', () => {
  it('stores the token in the keychain only: write-only, never in a file or the snapshot', async () => {
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, `  ${TOKEN}\n`);
    expect(await fx.secrets.get(accessAccount(w))).toBe(TOKEN);
    expect(await settings.token(settings.workspace(w.id)!)).toBe(TOKEN);
    const snapshot = await settings.getSnapshot();
    expect(snapshot.workspaces[0]?.hasToken).toBe(true);
    expect(JSON.stringify(snapshot)).not.toContain(TOKEN);
    const files = await fx.files();
    expect(files.map((f) => f.path)).toContain(join(fx.dir, 'config.json'));
    for (const file of files) expect(file.bytes.includes(TOKEN), file.path).toBe(false);
  });

  it('refuses a URL as the token with the webhook message, storing nothing', async () => {
    const w = await settings.addWorkspace(ACME);
    await expect(
      settings.setToken(w.id, 'https://hooks.slack.com/services/T1/B2/abc'),
    ).rejects.toMatchObject({
      code: 'token_is_url',
      message: expect.stringMatching(/That is a URL, not a token.*incoming-webhook/),
    });
    await expect(settings.setToken(w.id, 'xoxb-two words')).rejects.toMatchObject({
      code: 'token_malformed',
    });
    expect(await fx.secrets.get(accessAccount(w))).toBeNull();
  });

  it('refuses a token for a workspace that does not exist', async () => {
    await expect(settings.setToken('missing', TOKEN)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('clearToken removes it; hasToken follows', async () => {
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, TOKEN);
    await settings.clearToken(w.id);
    expect(await fx.secrets.get(accessAccount(w))).toBeNull();
    expect((await settings.getSnapshot()).workspaces[0]?.hasToken).toBe(false);
  });

  it('each workspace has its own token', async () => {
    const a = await settings.addWorkspace(ACME);
    const b = await settings.addWorkspace({ name: 'B', baseUrl: 'https://b.example' });
    await settings.setToken(a.id, 'xoxb-a');
    await settings.setToken(b.id, 'xoxb-b');
    await settings.clearToken(a.id);
    expect(await settings.token(settings.workspace(a.id)!)).toBeNull();
    expect(await settings.token(settings.workspace(b.id)!)).toBe('xoxb-b');
  });

  it('a keychain failure does not break the snapshot: hasToken false plus a notice', async () => {
    await settings.addWorkspace(ACME);
    const broken = fx.open({
      secrets: failingSecrets('locked', 'The keyring is locked; unlock it and try again.'),
    });
    const snapshot = await broken.getSnapshot();
    expect(snapshot.workspaces.map((w) => [w.name, w.hasToken])).toEqual([['Acme', false]]);
    expect(snapshot.settingsNotice).toBe('The keyring is locked; unlock it and try again.');
  });

  it('a keychain failure on setToken reaches the caller as the KeychainError', async () => {
    const w = await settings.addWorkspace(ACME);
    const broken = fx.open({ secrets: failingSecrets('denied', 'Access was refused.') });
    await expect(broken.setToken(w.id, TOKEN)).rejects.toMatchObject({
      problem: 'denied',
      message: 'Access was refused.',
    });
  });
});

describe('presets', () => {
  let acme: string;
  beforeEach(async () => {
    acme = (await settings.addWorkspace(ACME)).id;
  });

  it('normalises channels as the share sheet does, keeping labels', async () => {
    const p = await settings.addPreset({
      name: 'Design',
      workspaceId: acme,
      channels: [{ id: ' C0DESIGN ', label: 'design' }, { id: 'C0GENERAL' }, { id: 'C0DESIGN' }],
      comment: 'For Thursday',
    });
    expect(p.channels).toEqual([{ id: 'C0DESIGN', label: 'design' }, { id: 'C0GENERAL' }]);
    expect(settings.preset(p.id)).toEqual(p);
  });

  it.each([
    [channels('C1 C2'), /Channel ID "C1 C2" contains a space/],
    [channels('C1,C2'), /contains a comma/],
    [channels('  '), /No channel given/],
    [[], /No channel given/],
  ])('refuses bad channel IDs with the specific message', async (refs, message) => {
    await expect(
      settings.addPreset({ name: 'Bad', workspaceId: acme, channels: refs, comment: '' }),
    ).rejects.toMatchObject({ code: 'invalid_channels', message: expect.stringMatching(message) });
    expect(await savedPresets(settings)).toEqual([]);
  });

  it('needs an existing workspace and a unique name', async () => {
    await expect(
      settings.addPreset({ name: 'X', workspaceId: 'nope', channels: channels('C1'), comment: '' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await settings.addPreset({
      name: 'Design',
      workspaceId: acme,
      channels: channels('C1'),
      comment: '',
    });
    await expect(
      settings.addPreset({
        name: 'DESIGN',
        workspaceId: acme,
        channels: channels('C2'),
        comment: '',
      }),
    ).rejects.toMatchObject({ code: 'duplicate_name' });
  });

  it('the first preset becomes the default; later ones never take over', async () => {
    const first = await settings.addPreset({
      name: 'A',
      workspaceId: acme,
      channels: channels('C1'),
      comment: '',
    });
    const second = await settings.addPreset({
      name: 'B',
      workspaceId: acme,
      channels: channels('C2'),
      comment: '',
    });
    expect((await savedDefaultPreset(settings))?.id).toBe(first.id);
    await settings.setDefaultPreset(second.id);
    expect((await settings.getSnapshot()).defaultPresetId).toBe(second.id);
    await settings.removePreset(second.id);
    expect(await savedDefaultPreset(settings)).toBeUndefined();
    await expect(settings.setDefaultPreset('gone')).rejects.toMatchObject({ code: 'not_found' });
    await settings.setDefaultPreset(null);
    expect((await settings.getSnapshot()).defaultPresetId).toBeNull();
  });

  it('updates name, channels, comment and workspace under the same rules', async () => {
    const other = await settings.addWorkspace({ name: 'Other', baseUrl: 'https://other.example' });
    const a = await settings.addPreset({
      name: 'A',
      workspaceId: acme,
      channels: channels('C1'),
      comment: '',
    });
    await settings.addPreset({
      name: 'B',
      workspaceId: acme,
      channels: channels('C2'),
      comment: '',
    });
    await expect(settings.updatePreset(a.id, { name: 'b' })).rejects.toMatchObject({
      code: 'duplicate_name',
    });
    await expect(settings.updatePreset(a.id, { channels: channels('bad id') })).rejects.toThrow(
      /contains a space/,
    );
    const updated = await settings.updatePreset(a.id, {
      name: 'A2',
      channels: channels('C9', 'C8'),
      comment: 'hi',
      workspaceId: other.id,
    });
    expect(updated).toEqual({
      id: a.id,
      name: 'A2',
      workspaceId: other.id,
      channels: channels('C9', 'C8'),
      comment: 'hi',
    });
  });

  it('reorders; presets missing from the list keep their place at the end', async () => {
    const [a, , c] = await Promise.all(
      ['A', 'B', 'C'].map((name, i) =>
        settings.addPreset({ name, workspaceId: acme, channels: channels(`C${i}`), comment: '' }),
      ),
    );
    await settings.reorderPresets([c!.id, a!.id]);
    expect((await savedPresets(settings)).map((p) => p.name)).toEqual(['C', 'A', 'B']);
    await expect(settings.reorderPresets(['nope'])).rejects.toMatchObject({ code: 'not_found' });
    await expect(settings.reorderPresets([a!.id, a!.id])).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect((await savedPresets(settings)).map((p) => p.name)).toEqual(['C', 'A', 'B']);
  });
});

describe('preferences and channel checks', () => {
  it('validates and merges preferences, resolving to the whole set', async () => {
    const result = await settings.setPreferences({ concurrency: 8, shortcut: ' Alt+Shift+S ' });
    expect(result).toEqual({
      preferences: {
        shortcut: 'Alt+Shift+S',
        captureShortcut: 'CommandOrControl+Shift+2',
        launchAtLogin: false,
        checkForUpdates: true,
        trayDropAction: 'share-sheet',
        dropWindowPinned: false,
        concurrency: 8,
        fileManagerIntegration: false,
        copyLinkOnDelivery: false,
        detailedLogs: false,
        openCapturesInEditor: false,
        sendSmallerEdge: 2560,
        keepMetadata: false,
      },
    });
    await expect(settings.setPreferences({ concurrency: 9 })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^concurrency: /),
    });
    await expect(settings.setPreferences({ concurrency: 0 })).rejects.toThrow();
    await expect(
      settings.setPreferences({ trayDropAction: 'explode' } as never),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(settings.preferences().concurrency).toBe(8);
  });

  it('checkChannels answers what the share sheet shows', async () => {
    expect(await settings.checkChannels('C1, C2,,C1\nC3')).toEqual({
      ok: true,
      channels: ['C1', 'C2', 'C3'],
    });
    expect(await settings.checkChannels('C1, #general x')).toEqual({
      ok: false,
      error: expect.stringMatching(/"#general x" contains a space/),
    });
  });
});

describe('change events', () => {
  it('every change is announced; reads are not', async () => {
    let changes = 0;
    const off = settings.onChange(() => changes++);
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, TOKEN);
    await settings.addPreset({
      name: 'A',
      workspaceId: w.id,
      channels: channels('C1'),
      comment: '',
    });
    await settings.setPreferences({ launchAtLogin: true });
    await settings.getSnapshot();
    settings.workspace(w.id);
    expect(changes).toBe(4);
    await settings.clearToken(w.id);
    expect(changes).toBe(5);
    off();
    await settings.setPreferences({ launchAtLogin: false });
    expect(changes).toBe(5);
  });
});

describe('no token slips into the settings file through another field', () => {
  it('refuses a token-shaped name, URL, label or comment, saving nothing', async () => {
    await expect(
      settings.addWorkspace({ name: 'xoxb-123-456-abc', baseUrl: ACME.baseUrl }),
    ).rejects.toThrow(/^name looks like a token/);
    await expect(
      settings.addWorkspace({ name: 'Acme', baseUrl: 'https://acme.example/?t=xoxb-123-456-abc' }),
    ).rejects.toThrow(/^baseUrl looks like a token/);
    const w = await settings.addWorkspace(ACME);
    await expect(
      settings.addPreset({
        name: 'P',
        workspaceId: w.id,
        channels: [{ id: 'C1', label: 'Bearer abc.def' }],
        comment: '',
      }),
    ).rejects.toThrow(/^channels\[0\]\.label looks like a token/);
    const p = await settings.addPreset({
      name: 'P',
      workspaceId: w.id,
      channels: channels('C1'),
      comment: '',
    });
    await expect(settings.updatePreset(p.id, { comment: 'xoxp-999-888-secret' })).rejects.toThrow(
      /^comment looks like a token/,
    );
    for (const file of await fx.files()) expect(file.bytes.includes('xox'), file.path).toBe(false);
  });
});

describe('watching the file for other processes', () => {
  it('a change made by another process reaches onChange of a watching service', async () => {
    const app = fx.open({ watch: true });
    try {
      let changes = 0;
      app.onChange(() => changes++);
      await fx.open().addWorkspace(ACME);
      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
      expect(app.workspaceByName('acme')).toBeDefined();
    } finally {
      app.close();
    }
  });

  it('watch() (the CLI while it sends): changes arrive while a watch is on, and not after the last ends', async () => {
    const cli = fx.open();
    const other = fx.open();
    // Watches all along: once it has seen an edit, the CLI's watcher would have too.
    const fence = fx.open({ watch: true });
    try {
      let changes = 0;
      let fenced = 0;
      cli.onChange(() => changes++);
      fence.onChange(() => fenced++);
      const first = cli.watch();
      const second = cli.watch();
      first();
      first();
      await other.addWorkspace(ACME);
      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
      second();
      const seen = changes;
      await vi.waitFor(() => expect(fenced).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
      const before = fenced;
      await other.addWorkspace({ name: 'Beta', baseUrl: 'https://beta.example' });
      await vi.waitFor(() => expect(fenced).toBeGreaterThan(before), {
        timeout: 5000,
        interval: 20,
      });
      expect(changes).toBe(seen);
      expect(cli.workspaceByName('beta')).toBeDefined();
    } finally {
      fence.close();
      cli.close();
    }
  });
});

describe('CLI helpers: one call per command', () => {
  it('login creates the workspace and stores the token; a URL token saves nothing', async () => {
    await expect(
      login(settings, {
        workspace: 'Hooks',
        baseUrl: 'https://hooks.example',
        token: 'https://hooks.slack.com/services/T/B/x',
      }),
    ).rejects.toThrow(/That is a URL, not a token/);
    expect(await savedWorkspaces(settings)).toEqual([]);
    await expect(login(settings, { workspace: 'New', token: TOKEN })).rejects.toMatchObject({
      code: 'needs_base_url',
    });
  });

  it('login rolls back a new workspace when the keychain refuses the token', async () => {
    const broken = fx.open({ secrets: failingSecrets('no-secret-service', 'No Secret Service.') });
    await expect(
      login(broken, { workspace: 'Acme', baseUrl: ACME.baseUrl, token: TOKEN }),
    ).rejects.toThrow('No Secret Service.');
    expect(await savedWorkspaces(settings)).toEqual([]);
  });

  it('findWorkspace / findPreset / shareTarget / addPresetFromText / logout', async () => {
    const w = await settings.addWorkspace(ACME);
    await settings.setToken(w.id, TOKEN);
    const p = await addPresetFromText(settings, {
      name: 'Design',
      workspace: 'acme',
      channels: 'C0DESIGN, C0GENERAL',
      comment: 'For Thursday',
      makeDefault: true,
    });
    expect(p.channels).toEqual(channels('C0DESIGN', 'C0GENERAL'));
    expect(settings.findWorkspace('ACME').id).toBe(w.id);
    expect(() => settings.findWorkspace('Nope')).toThrow(
      'No workspace named "Nope" (workspaces: Acme).',
    );
    expect(() => settings.findPreset('Nope')).toThrow('No preset named "Nope" (presets: Design).');
    expect(settings.shareTarget({ preset: 'design' })).toMatchObject({
      workspace: { id: w.id },
      channels: ['C0DESIGN', 'C0GENERAL'],
      comment: 'For Thursday',
    });
    expect(settings.shareTarget({ workspace: 'Acme', channels: 'C1,C1, C2' })).toMatchObject({
      channels: ['C1', 'C2'],
      comment: '',
    });
    expect(() => settings.shareTarget({ workspace: 'Acme' })).toThrow(/a workspace and channels/);
    expect(await logout(settings, 'acme')).toMatchObject({ removed: true });
    expect(await logout(settings, 'acme')).toMatchObject({ removed: false });
  });
});

describe('testConnection against the reference service', () => {
  let service: ReferenceService;
  let serviceDir: string;
  beforeAll(async () => {
    serviceDir = await mkdtemp(join(tmpdir(), 'trayshare-settings-service-'));
    service = await startReferenceService({ dataDir: serviceDir });
  });
  afterAll(async () => {
    await service.close();
    await rm(serviceDir, { recursive: true, force: true });
  });
  afterEach(() => service.clearFaults());

  it('a good token: ok, with who it belongs to', async () => {
    const result = await login(settings, { workspace: 'Ref', baseUrl: service.url, token: TOKEN });
    expect(result.created).toBe(true);
    expect(result.connection).toMatchObject({ ok: true, checked: true });
    expect(result.connection.message).toMatch(/^Ref: the service accepted the token/);
    expect(result.connection.user).toBeTruthy();
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('a refused token: checked, not ok, the service’s reason in plain words', async () => {
    const w = await settings.addWorkspace({ name: 'Ref', baseUrl: service.url });
    await settings.setToken(w.id, 'xoxb-not-a-real-token');
    const result = await settings.testConnection(w.id);
    expect(result).toMatchObject({ ok: false, checked: true });
    expect(result.message).toMatch(/^Ref: /);
    expect(result.message).not.toContain('xoxb-not-a-real-token');
  });

  it('a service without auth.test: says the token cannot be checked without uploading', async () => {
    const w = await settings.addWorkspace({ name: 'Ref', baseUrl: service.url });
    await settings.setToken(w.id, TOKEN);
    service.injectFault({ method: 'auth.test', fault: { kind: 'error', error: 'unknown_method' } });
    const result = await settings.testConnection(w.id);
    expect(result).toMatchObject({ ok: false, checked: false });
    expect(result.message).toMatch(/cannot be checked without uploading/);
  });

  it('no token saved: nothing is sent, and the message says to add one', async () => {
    const w = await settings.addWorkspace({ name: 'Ref', baseUrl: service.url });
    const result = await settings.testConnection(w.id);
    expect(result).toMatchObject({ ok: false, checked: false });
    expect(result.message).toMatch(/^Ref: No token/);
  });
});
