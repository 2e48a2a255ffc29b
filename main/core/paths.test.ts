import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultUserDataDir } from './paths';

describe('defaultUserDataDir: the folder Electron uses as userData for "Trayshare"', () => {
  it('Linux: $XDG_CONFIG_HOME/Trayshare when set', () => {
    expect(defaultUserDataDir({ HOME: '/home/ada', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe(
      '/cfg/Trayshare',
    );
  });

  it('Linux: ~/.config/Trayshare without XDG_CONFIG_HOME (or with it empty)', () => {
    expect(defaultUserDataDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.config/Trayshare');
    expect(defaultUserDataDir({ HOME: '/home/ada', XDG_CONFIG_HOME: '' }, 'linux')).toBe(
      '/home/ada/.config/Trayshare',
    );
  });

  it('Linux: falls back to the account home directory when HOME is unset', () => {
    expect(defaultUserDataDir({}, 'linux')).toBe(`${homedir()}/.config/Trayshare`);
  });

  it('macOS: ~/Library/Application Support/Trayshare, ignoring XDG variables', () => {
    expect(defaultUserDataDir({ HOME: '/Users/ada', XDG_CONFIG_HOME: '/cfg' }, 'darwin')).toBe(
      '/Users/ada/Library/Application Support/Trayshare',
    );
  });

  it('Windows: %APPDATA%\\Trayshare', () => {
    expect(defaultUserDataDir({ APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\Ada\\AppData\\Roaming\\Trayshare',
    );
  });

  it('Windows: the roaming folder under %USERPROFILE% when %APPDATA% is missing', () => {
    expect(defaultUserDataDir({ USERPROFILE: 'C:\\Users\\Ada' }, 'win32')).toBe(
      'C:\\Users\\Ada\\AppData\\Roaming\\Trayshare',
    );
  });

  it('TRAYSHARE_DATA_DIR overrides the platform folder everywhere', () => {
    const env = { HOME: '/home/ada', APPDATA: 'C:\\Roaming', TRAYSHARE_DATA_DIR: '/srv/ts' };
    expect(defaultUserDataDir(env, 'linux')).toBe('/srv/ts');
    expect(defaultUserDataDir(env, 'darwin')).toBe('/srv/ts');
    expect(defaultUserDataDir({ ...env, TRAYSHARE_DATA_DIR: 'D:\\ts' }, 'win32')).toBe('D:\\ts');
  });

  it('a blank TRAYSHARE_DATA_DIR is ignored', () => {
    expect(defaultUserDataDir({ HOME: '/home/ada', TRAYSHARE_DATA_DIR: '  ' }, 'linux')).toBe(
      '/home/ada/.config/Trayshare',
    );
  });

  it('uses the real environment and platform by default', () => {
    expect(defaultUserDataDir()).toBe(defaultUserDataDir(process.env, process.platform));
  });
});
