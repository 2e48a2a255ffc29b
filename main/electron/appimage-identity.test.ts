// The AppImage's desktop entry and icon, written into a real (temporary) home as the AppImage
// would on its first start, and what happens when it moves, when a package or the person
// already has an entry, and when the home cannot be written.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installAppImageIdentity } from './appimage-identity';

let dir: string;
let home: string;
let iconSource: string;
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  XDG_DATA_DIRS: join(dir, 'system'),
  ...extra,
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-appimage-'));
  home = join(dir, 'home');
  await mkdir(home);
  // The 256 px icon electron-builder puts at resources/icon.png (electron-builder.yml).
  iconSource = fileURLToPath(new URL('../../build/icons/256x256.png', import.meta.url));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// AppImages exist on Linux only, and the module writes POSIX paths (XDG base directories);
// macOS reads them the same, Windows' drive-letter temp folders do not.
describe.skipIf(process.platform === 'win32')('an AppImage on Linux', () => {
  it('installs the desktop entry the Wayland shortcut portal looks for, with a stable icon', async () => {
    const appImage = '/home/ann/Apps/Trayshare 1.0.AppImage';
    const result = await installAppImageIdentity({ appImage, iconSource, home, env: env() });
    const desktopFile = join(home, '.local/share/applications/app.trayshare.Trayshare.desktop');
    const icon = join(home, '.local/share/icons/hicolor/256x256/apps/trayshare.png');
    expect(result).toEqual({ state: 'installed', desktopFile, icon });
    const entry = await readFile(desktopFile, 'utf8');
    // %u and the scheme: a team's trayshare://setup link opens in the app.
    expect(entry).toContain('\nExec="/home/ann/Apps/Trayshare 1.0.AppImage" %u\n');
    expect(entry).toContain('\nMimeType=x-scheme-handler/trayshare;\n');
    expect(entry).toContain(`\nIcon=${icon}\n`);
    expect(entry).toContain('\nName=Trayshare\n');
    // The copy outlives the AppImage's mount point.
    expect((await readFile(icon)).equals(await readFile(iconSource))).toBe(true);

    // The next start finds it as it was.
    expect(await installAppImageIdentity({ appImage, iconSource, home, env: env() })).toMatchObject(
      { state: 'unchanged' },
    );
  });

  it('follows the AppImage when it is moved, under XDG_DATA_HOME', async () => {
    const data = join(dir, 'data');
    const facts = { iconSource, home, env: env({ XDG_DATA_HOME: data }) };
    await installAppImageIdentity({ ...facts, appImage: '/old/Trayshare.AppImage' });
    const moved = await installAppImageIdentity({ ...facts, appImage: '/new/Trayshare.AppImage' });
    expect(moved).toMatchObject({
      state: 'installed',
      desktopFile: join(data, 'applications/app.trayshare.Trayshare.desktop'),
    });
    const entry = await readFile(
      join(data, 'applications/app.trayshare.Trayshare.desktop'),
      'utf8',
    );
    expect(entry).toContain('\nExec="/new/Trayshare.AppImage" %u\n');
  });

  it('leaves an installed package’s entry and the person’s own entry alone', async () => {
    const system = join(dir, 'system/applications/app.trayshare.Trayshare.desktop');
    await mkdir(join(dir, 'system/applications'), { recursive: true });
    await writeFile(system, '[Desktop Entry]\nName=Trayshare\nExec=/opt/Trayshare/trayshare\n');
    const withPackage = await installAppImageIdentity({
      appImage: '/a/Trayshare.AppImage',
      iconSource,
      home,
      env: env(),
    });
    expect(withPackage).toMatchObject({ state: 'left-alone', desktopFile: system });
    await expect(
      readFile(join(home, '.local/share/applications/app.trayshare.Trayshare.desktop')),
    ).rejects.toThrow(/ENOENT/);

    await rm(system);
    const own = join(home, '.local/share/applications/app.trayshare.Trayshare.desktop');
    await mkdir(join(home, '.local/share/applications'), { recursive: true });
    await writeFile(own, '[Desktop Entry]\nName=My Trayshare\nExec=/x\n');
    const result = await installAppImageIdentity({
      appImage: '/a/Trayshare.AppImage',
      iconSource,
      home,
      env: env(),
    });
    expect(result).toMatchObject({ state: 'left-alone', desktopFile: own });
    expect(await readFile(own, 'utf8')).toBe('[Desktop Entry]\nName=My Trayshare\nExec=/x\n');
  });

  it('says what could not be written when the home has no room for it', async () => {
    // A file where the applications folder would go: refused for root too.
    await mkdir(join(home, '.local/share'), { recursive: true });
    await writeFile(join(home, '.local/share/applications'), 'not a folder');
    const result = await installAppImageIdentity({
      appImage: '/a/Trayshare.AppImage',
      iconSource,
      home,
      env: env(),
    });
    expect(result.state).toBe('failed');
    expect(result.state === 'failed' && result.error).toMatch(
      /app\.trayshare\.Trayshare\.desktop could not be written: .*(ENOTDIR|EEXIST)/,
    );
    // The icon copy still serves the file-manager entries.
    expect(result.icon).toBe(join(home, '.local/share/icons/hicolor/256x256/apps/trayshare.png'));
  });

  // GLib's `gio launch` is what a browser's "open trayshare://" goes through on GNOME; Linux only.
  it.runIf(process.platform === 'linux')(
    'hands a set-up link to an AppImage whose path holds %, through env',
    async () => {
      const folder = join(dir, '100% Apps %u');
      await mkdir(folder);
      const appImage = join(folder, 'Trayshare.AppImage');
      const log = join(dir, 'argv.log');
      // Records its arguments, as the AppImage would receive them.
      await writeFile(appImage, `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\n`);
      await chmod(appImage, 0o755);
      const result = await installAppImageIdentity({ appImage, iconSource, home, env: env() });
      if (result.state !== 'installed') throw new Error(`not installed: ${result.state}`);
      expect(await readFile(result.desktopFile, 'utf8')).toContain('\nExec=env "');

      const link = 'trayshare://setup?workspace=T0TEAM&name=100%25';
      await promisify(execFile)('gio', ['launch', result.desktopFile, link], {
        env: { ...process.env, HOME: home },
      });
      await expect
        .poll(() => readFile(log, 'utf8').catch(() => ''), { timeout: 5000 })
        .toBe(`${link}\n`);
    },
  );
});
