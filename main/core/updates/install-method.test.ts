import { describe, expect, it } from 'vitest';
import { type InstallFacts, installMethod } from './install-method';

const facts = (over: Partial<InstallFacts>, files: string[] = []): InstallFacts => ({
  platform: 'linux',
  exePath: '/opt/Trayshare/trayshare',
  home: '/home/ana',
  env: {},
  exists: (path) => files.includes(path),
  ...over,
});

const MAC_APP = '/Applications/Trayshare.app/Contents/MacOS/Trayshare';

describe('how this copy was installed', () => {
  it('Flatpak: by FLATPAK_ID or the sandbox file, only on Linux', () => {
    expect(installMethod(facts({ env: { FLATPAK_ID: 'app.trayshare.Trayshare' } }))).toBe(
      'flatpak',
    );
    expect(installMethod(facts({ exePath: '/app/trayshare/trayshare' }, ['/.flatpak-info']))).toBe(
      'flatpak',
    );
    expect(installMethod(facts({}))).toBe('installer');
  });

  it("Homebrew: the app in the appdir while the cask's record is in the Caskroom", () => {
    const mac = (over: Partial<InstallFacts>, files: string[]) =>
      installMethod(
        facts({ platform: 'darwin', exePath: MAC_APP, home: '/Users/ana', ...over }, files),
      );
    expect(mac({}, ['/opt/homebrew/Caskroom/trayshare'])).toBe('homebrew');
    expect(mac({}, ['/usr/local/Caskroom/trayshare'])).toBe('homebrew');
    expect(
      mac({ exePath: '/Users/ana/Applications/Trayshare.app/Contents/MacOS/Trayshare' }, [
        '/opt/homebrew/Caskroom/trayshare',
      ]),
    ).toBe('homebrew');
    expect(
      mac({ env: { HOMEBREW_PREFIX: '/Users/ana/brew' } }, ['/Users/ana/brew/Caskroom/trayshare']),
    ).toBe('homebrew');
    // Downloaded from the release page: no cask record.
    expect(mac({}, [])).toBe('installer');
    // A cask record, but this copy runs from somewhere else (a dmg, Downloads).
    expect(
      mac({ exePath: '/Volumes/Trayshare 1.2.3/Trayshare.app/Contents/MacOS/Trayshare' }, [
        '/opt/homebrew/Caskroom/trayshare',
      ]),
    ).toBe('installer');
  });

  it("Scoop: the executable under Scoop's apps folder, wherever its root is", () => {
    const win = (over: Partial<InstallFacts>, files: string[] = []) =>
      installMethod(facts({ platform: 'win32', home: 'C:\\Users\\Ana', ...over }, files));
    expect(win({ exePath: 'C:\\Users\\Ana\\scoop\\apps\\trayshare\\current\\Trayshare.exe' })).toBe(
      'scoop',
    );
    expect(
      win({
        exePath: 'D:\\Tools\\Scoop\\apps\\Trayshare\\1.2.3\\Trayshare.exe',
        env: { SCOOP: 'D:\\Tools\\Scoop' },
      }),
    ).toBe('scoop');
    expect(
      win({
        exePath: 'C:\\ProgramData\\scoop\\apps\\trayshare\\current\\Trayshare.exe',
        env: { ProgramData: 'C:\\ProgramData' },
      }),
    ).toBe('scoop');
    // root_path moved elsewhere: Scoop itself sits beside it.
    expect(
      win({ exePath: 'E:\\s\\apps\\trayshare\\current\\Trayshare.exe' }, ['E:\\s\\apps\\scoop']),
    ).toBe('scoop');
    // The NSIS installer's per-user folder (also where winget's install lands).
    expect(
      win({ exePath: 'C:\\Users\\Ana\\AppData\\Local\\Programs\\Trayshare\\Trayshare.exe' }),
    ).toBe('installer');
  });
});
