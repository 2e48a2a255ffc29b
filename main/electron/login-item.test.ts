import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartFile } from '../core/autostart/xdg-autostart';
import { AUTOSTART_FLAG, applyLaunchAtLogin, type LoginItemApp } from './login-item';

describe('launch at login', () => {
  it('uses the OS login item on macOS and Windows (with the autostart flag on Windows)', async () => {
    const calls: { openAtLogin?: boolean }[] = [];
    // An OS that takes what it is told: reading back gives what was last set.
    const app: LoginItemApp = {
      setLoginItemSettings: (s) => {
        calls.push(s);
      },
      getLoginItemSettings: () => {
        const on = calls.at(-1)?.openAtLogin === true;
        return {
          openAtLogin: on,
          status: on ? 'enabled' : 'not-registered',
          executableWillLaunchAtLogin: on,
        };
      },
    };
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
          getLoginItemSettings: () => {
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

describe('launch at login, read back', () => {
  function osApp(read: ReturnType<LoginItemApp['getLoginItemSettings']>) {
    const asked: unknown[] = [];
    const set: unknown[] = [];
    return {
      asked,
      set,
      app: {
        setLoginItemSettings: (settings: unknown) => {
          set.push(settings);
        },
        getLoginItemSettings: (options?: unknown) => {
          asked.push(options);
          return read;
        },
      } satisfies LoginItemApp,
    };
  }
  const linuxEntry = () => {
    throw new Error('not on Linux');
  };

  it('says when macOS holds the login item for approval, and where to give it', async () => {
    const { app } = osApp({ openAtLogin: false, status: 'requires-approval' });
    await expect(applyLaunchAtLogin({ platform: 'darwin', app, linuxEntry }, true)).rejects.toThrow(
      'macOS needs your approval: open System Settings › General › Login Items and turn Trayshare on.',
    );
  });

  it('says when macOS did not register it at all', async () => {
    const { app } = osApp({ openAtLogin: false, status: 'not-registered' });
    await expect(applyLaunchAtLogin({ platform: 'darwin', app, linuxEntry }, true)).rejects.toThrow(
      /macOS did not add Trayshare to your login items \(not-registered\)/,
    );
  });

  it('is quiet when macOS took it: set, read back, no error', async () => {
    const { app, set, asked } = osApp({ openAtLogin: true, status: 'enabled' });
    await expect(
      applyLaunchAtLogin({ platform: 'darwin', app, linuxEntry }, true),
    ).resolves.toBeUndefined();
    expect(set).toEqual([{ openAtLogin: true }]);
    expect(asked).toEqual([{}]);
  });

  it('says when Windows keeps Trayshare off in Startup apps, reading the entry with its flag', async () => {
    const { app, asked } = osApp({ openAtLogin: true, executableWillLaunchAtLogin: false });
    await expect(applyLaunchAtLogin({ platform: 'win32', app, linuxEntry }, true)).rejects.toThrow(
      /turned off as a startup app: turn it on in Settings › Apps › Startup/,
    );
    expect(asked).toEqual([{ args: [AUTOSTART_FLAG] }]);
    const on = osApp({ openAtLogin: true, executableWillLaunchAtLogin: true });
    await applyLaunchAtLogin({ platform: 'win32', app: on.app, linuxEntry }, true);
  });

  it('says when the item could not be removed', async () => {
    const { app } = osApp({ openAtLogin: true, status: 'enabled' });
    await expect(
      applyLaunchAtLogin({ platform: 'darwin', app, linuxEntry }, false),
    ).rejects.toThrow(/still in your login items/);
  });
});
