import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartFile } from '../core/autostart/xdg-autostart';
import { AUTOSTART_FLAG, applyLaunchAtLogin } from './login-item';

describe('launch at login', () => {
  it('uses the OS login item on macOS and Windows (with the autostart flag on Windows)', async () => {
    const calls: unknown[] = [];
    const app = { setLoginItemSettings: (s: unknown) => calls.push(s) };
    const linuxEntry = () => {
      throw new Error('not on Linux');
    };
    await applyLaunchAtLogin({ platform: 'darwin', app, linuxEntry }, true);
    await applyLaunchAtLogin({ platform: 'win32', app, linuxEntry }, true);
    await applyLaunchAtLogin({ platform: 'win32', app, linuxEntry }, false);
    expect(calls).toEqual([
      { openAtLogin: true },
      { openAtLogin: true, args: [AUTOSTART_FLAG] },
      { openAtLogin: false, args: [AUTOSTART_FLAG] },
    ]);
  });

  it('writes and removes an XDG autostart entry on Linux', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trayshare-login-'));
    try {
      const entry = {
        configHome: dir,
        id: 'trayshare',
        name: 'Trayshare',
        command: ['/home/ana/Apps/Trayshare 1.0.AppImage', AUTOSTART_FLAG],
      };
      const deps = {
        platform: 'linux' as const,
        app: {
          setLoginItemSettings: () => {
            throw new Error('not on Linux');
          },
        },
        linuxEntry: () => entry,
      };
      await applyLaunchAtLogin(deps, true);
      const text = await readFile(autostartFile(entry), 'utf8');
      expect(text).toContain('Exec="/home/ana/Apps/Trayshare 1.0.AppImage" --autostart');
      await applyLaunchAtLogin(deps, false);
      await expect(readFile(autostartFile(entry), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
