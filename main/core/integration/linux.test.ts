// The Linux integration on a real, throw-away home folder.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileManagerIntegration } from './integration';

let base: string;
let home: string;
let systemConfig: string;

const EXE = '/opt/Trayshare/trayshare';
const MOVED = "/home/someone/Applications/Trayshare 'new'/Trayshare-0.2.AppImage";

// A system-wide uca.xml like the one Thunar installs in /etc/xdg.
const SYSTEM_UCA = `<?xml version="1.0" encoding="UTF-8"?>
<actions>
<action>
\t<icon>utilities-terminal</icon>
\t<name>Open Terminal Here</name>
\t<unique-id>1-1</unique-id>
\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
\t<description>Example for a custom action</description>
\t<patterns>*</patterns>
\t<startup-notify/>
\t<directories/>
</action>
</actions>
`;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'trayshare-integration-'));
  home = join(base, 'home');
  systemConfig = join(base, 'etc-xdg');
  // Every desktop account has these two.
  await mkdir(join(home, '.local', 'share'), { recursive: true });
  await mkdir(join(home, '.config'), { recursive: true });
  await mkdir(join(systemConfig, 'Thunar'), { recursive: true });
  await writeFile(join(systemConfig, 'Thunar', 'uca.xml'), SYSTEM_UCA);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const integrationFor = (exe: string, env: NodeJS.ProcessEnv = {}) =>
  createFileManagerIntegration({
    platform: 'linux',
    app: { exe, icon: '/opt/Trayshare/resources/icon.png' },
    home,
    env: { XDG_CONFIG_DIRS: systemConfig, ...env },
  });

/** Every file and folder under `dir` with its mode and content. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(path: string, rel: string) {
    for (const name of (await readdir(path)).sort()) {
      const full = join(path, name);
      const info = await stat(full);
      const mode = (info.mode & 0o777).toString(8);
      if (info.isDirectory()) {
        out[`${rel}${name}/`] = mode;
        await walk(full, `${rel}${name}/`);
      } else {
        out[`${rel}${name}`] = `${mode} ${await readFile(full, 'utf8')}`;
      }
    }
  }
  await walk(dir, '');
  return out;
}

const dataFile = (...parts: string[]) => join(home, '.local', 'share', ...parts);
const uca = () => join(home, '.config', 'Thunar', 'uca.xml');

// The entries must be executable files (POSIX modes), which Windows file systems do not have;
// this integration only ever runs on Linux (macOS has the same modes, so it runs there too).
const noFileModes = process.platform === 'win32';
describe.skipIf(noFileModes)('Linux integration (skipped on Windows: no file modes)', () => {
  it('installs the Open With entry, the Nautilus script, the Dolphin menu and the Thunar action', async () => {
    const status = await integrationFor(EXE).install();

    expect(status.errors).toEqual([]);
    expect(status.state).toBe('installed');
    expect(status.entries.map((e) => [e.id, e.state])).toEqual([
      ['desktop-entry', 'installed'],
      ['nautilus-script', 'installed'],
      ['dolphin-service-menu', 'installed'],
      ['thunar-action', 'installed'],
    ]);

    const desktop = await readFile(dataFile('applications', 'trayshare-share.desktop'), 'utf8');
    expect(desktop).toContain('\nExec="/opt/Trayshare/trayshare" --share %F\n');
    expect(desktop).toContain('\nMimeType=application/octet-stream;\n');
    expect(desktop).toContain('\nIcon=/opt/Trayshare/resources/icon.png\n');

    const script = dataFile('nautilus', 'scripts', 'Share with Trayshare');
    expect((await stat(script)).mode & 0o777).toBe(0o755);
    expect(await readFile(script, 'utf8')).toContain(
      'exec \'/opt/Trayshare/trayshare\' --share "$@"',
    );

    const menu = dataFile('kio', 'servicemenus', 'trayshare.desktop');
    expect((await stat(menu)).mode & 0o111).not.toBe(0);
    const menuText = await readFile(menu, 'utf8');
    expect(menuText).toContain('\nMimeType=all/all;\n');
    expect(menuText).toContain('\nX-KDE-ServiceTypes=KonqPopupMenu/Plugin\n');
    expect(menuText).toContain('\nExec="/opt/Trayshare/trayshare" --share %F\n');

    // A new user uca.xml starts from the system one, so Thunar's own actions stay.
    const ucaText = await readFile(uca(), 'utf8');
    expect(ucaText).toContain('<name>Open Terminal Here</name>');
    expect(ucaText).toContain('<command>&apos;/opt/Trayshare/trayshare&apos; --share %F</command>');
  });

  it('install then remove leaves the home folder exactly as it was', async () => {
    const before = await snapshot(home);
    const integration = integrationFor(EXE);
    await integration.install();
    expect(await snapshot(home)).not.toEqual(before);

    const status = await integration.remove();

    expect(status.errors).toEqual([]);
    expect(status.state).toBe('not-installed');
    expect(await snapshot(home)).toEqual(before);
  });

  it('the Settings switch installs, keeps, and removes; a file it may not replace is one sentence', async () => {
    const before = await snapshot(home);
    const integration = integrationFor(EXE);
    await integration.setEnabled(true);
    expect((await integration.status()).state).toBe('installed');
    const installed = await snapshot(home);
    await integration.setEnabled(true);
    expect(await snapshot(home)).toEqual(installed);
    await integration.setEnabled(false);
    expect(await snapshot(home)).toEqual(before);

    const path = dataFile('applications', 'trayshare-share.desktop');
    await mkdir(dataFile('applications'), { recursive: true });
    await writeFile(path, '[Desktop Entry]\nName=Hand-made\n');
    await expect(integration.setEnabled(true)).rejects.toThrow(
      `${path} was not written by Trayshare; it was left as it is.`,
    );
  });

  it('remove after the app moved still removes what the old location wrote', async () => {
    const before = await snapshot(home);
    await integrationFor(EXE).install();
    await integrationFor(MOVED).remove();
    expect(await snapshot(home)).toEqual(before);
  });

  it("keeps other programs' entries through install and remove", async () => {
    await mkdir(dataFile('applications'), { recursive: true });
    await writeFile(dataFile('applications', 'other.desktop'), '[Desktop Entry]\nName=Other\n');
    await mkdir(dataFile('nautilus', 'scripts'), { recursive: true });
    await writeFile(dataFile('nautilus', 'scripts', 'Compress'), '#!/bin/sh\n', { mode: 0o755 });
    await mkdir(dataFile('kio', 'servicemenus'), { recursive: true });
    await writeFile(dataFile('kio', 'servicemenus', 'other.desktop'), '[Desktop Entry]\n');
    await mkdir(join(home, '.config', 'Thunar'), { recursive: true });
    const userUca = SYSTEM_UCA.replace(
      '</actions>',
      '<action>\n\t<name>Mine &amp; only mine</name>\n\t<unique-id>2-2</unique-id>\n\t<command>echo %F</command>\n\t<patterns>*</patterns>\n\t<other-files/>\n</action>\n</actions>',
    );
    await writeFile(uca(), userUca);
    const before = await snapshot(home);

    const integration = integrationFor(EXE);
    await integration.install();
    const during = await readFile(uca(), 'utf8');
    expect(during).toContain('<name>Mine &amp; only mine</name>');
    expect(during).toContain('trayshare-share-with-trayshare');
    await integration.remove();

    expect(await snapshot(home)).toEqual(before);
  });

  it('puts its files under XDG_DATA_HOME and XDG_CONFIG_HOME when they are set', async () => {
    const data = join(base, 'data home');
    const config = join(base, 'config home');
    const integration = integrationFor(EXE, { XDG_DATA_HOME: data, XDG_CONFIG_HOME: config });
    const before = await snapshot(home);

    const status = await integration.install();

    expect(status.entries.map((e) => e.location)).toEqual([
      join(data, 'applications', 'trayshare-share.desktop'),
      join(data, 'nautilus', 'scripts', 'Share with Trayshare'),
      join(data, 'kio', 'servicemenus', 'trayshare.desktop'),
      join(config, 'Thunar', 'uca.xml'),
    ]);
    for (const entry of status.entries) await stat(entry.location);
    expect(await snapshot(home)).toEqual(before);
  });

  it('removes cleanly under an XDG_DATA_HOME written with a trailing slash', async () => {
    const data = join(base, 'data');
    await mkdir(data);
    const integration = integrationFor(EXE, { XDG_DATA_HOME: `${data}/` });
    await integration.install();
    await integration.remove();
    expect(await snapshot(data)).toEqual({});
  });

  it('reports an entry it cannot check instead of failing', async () => {
    await mkdir(dataFile('applications', 'trayshare-share.desktop'), { recursive: true });
    const status = await integrationFor(EXE).status();
    expect(status.errors.map((e) => e.id)).toEqual(['desktop-entry']);
    expect(status.errors[0]?.message).toMatch(/^Could not check: /);
  });

  it('ignores relative XDG paths, as the specification requires', async () => {
    const status = await integrationFor(EXE, { XDG_DATA_HOME: 'relative/data' }).status();
    expect(status.entries[0]?.location).toBe(dataFile('applications', 'trayshare-share.desktop'));
  });

  it('repairs entries that point at an old location and keeps foreign actions', async () => {
    await integrationFor(EXE).install();
    await writeFile(
      uca(),
      (await readFile(uca(), 'utf8')).replace(
        '</actions>',
        '<action>\n\t<name>Later</name>\n\t<unique-id>3-3</unique-id>\n\t<command>x</command>\n</action>\n</actions>',
      ),
    );
    const moved = integrationFor(MOVED);

    const stale = await moved.status();
    expect(stale.state).toBe('needs-repair');
    expect(stale.entries.every((e) => e.state === 'stale')).toBe(true);

    const repaired = await moved.repair();

    expect(repaired.state).toBe('installed');
    const files = await snapshot(home);
    const text = Object.values(files).join('\n');
    expect(text).not.toContain('/opt/Trayshare/trayshare');
    expect(text).toContain('Trayshare-0.2.AppImage');
    expect(files['.config/Thunar/uca.xml']).toContain('<name>Later</name>');
    expect(files['.config/Thunar/uca.xml']?.match(/trayshare-share-with-trayshare/g)).toHaveLength(
      1,
    );
  });

  it('repair does not bring back entries the user removed', async () => {
    await integrationFor(EXE).install();
    await rm(dataFile('nautilus', 'scripts', 'Share with Trayshare'));
    const status = await integrationFor(EXE).repair();
    expect(status.state).toBe('partial');
    expect(status.entries.find((e) => e.id === 'nautilus-script')?.state).toBe('missing');
  });

  it('leaves a file it did not write alone, and says so', async () => {
    const path = dataFile('applications', 'trayshare-share.desktop');
    await mkdir(dataFile('applications'), { recursive: true });
    await writeFile(path, '[Desktop Entry]\nName=Hand-made\n');
    const integration = integrationFor(EXE);

    const installed = await integration.install();
    expect(installed.entries[0]?.state).toBe('foreign');
    expect(installed.errors).toEqual([
      {
        id: 'desktop-entry',
        message: `${path} was not written by Trayshare; it was left as it is.`,
      },
    ]);
    await integration.remove();
    expect(await readFile(path, 'utf8')).toBe('[Desktop Entry]\nName=Hand-made\n');
  });

  it('leaves an unreadable uca.xml unchanged and says so', async () => {
    await mkdir(join(home, '.config', 'Thunar'), { recursive: true });
    await writeFile(uca(), 'not xml at all');
    const status = await integrationFor(EXE).install();
    expect(status.errors.map((e) => e.id)).toEqual(['thunar-action']);
    expect(await readFile(uca(), 'utf8')).toBe('not xml at all');
  });

  it('starts a path with % through env, as GLib cannot look up a program written with %%', async () => {
    const status = await integrationFor('/opt/100% Trayshare/trayshare').install();
    expect(status.errors).toEqual([]);
    const desktop = await readFile(dataFile('applications', 'trayshare-share.desktop'), 'utf8');
    expect(desktop).toContain('\nExec=env "/opt/100%% Trayshare/trayshare" --share %F\n');
  });
});
