import { describe, expect, it } from 'vitest';
import { compileCacheDir } from './compile-cache';

describe("compileCacheDir: where the CLI keeps Node's compile cache", () => {
  it('Linux: $XDG_CACHE_HOME/trayshare/compile-cache, else ~/.cache/…', () => {
    expect(compileCacheDir({ HOME: '/home/ada', XDG_CACHE_HOME: '/c' }, 'linux')).toBe(
      '/c/trayshare/compile-cache',
    );
    expect(compileCacheDir({ HOME: '/home/ada' }, 'linux')).toBe(
      '/home/ada/.cache/trayshare/compile-cache',
    );
  });

  it('macOS: ~/Library/Caches/Trayshare/compile-cache', () => {
    expect(compileCacheDir({ HOME: '/Users/ada', XDG_CACHE_HOME: '/c' }, 'darwin')).toBe(
      '/Users/ada/Library/Caches/Trayshare/compile-cache',
    );
  });

  it('Windows: the local (not roaming) app data folder', () => {
    expect(compileCacheDir({ LOCALAPPDATA: 'C:\\Users\\Ada\\AppData\\Local' }, 'win32')).toBe(
      'C:\\Users\\Ada\\AppData\\Local\\Trayshare\\Cache\\compile-cache',
    );
    expect(compileCacheDir({ USERPROFILE: 'C:\\Users\\Ada' }, 'win32')).toBe(
      'C:\\Users\\Ada\\AppData\\Local\\Trayshare\\Cache\\compile-cache',
    );
  });

  it('NODE_COMPILE_CACHE wins on every platform, as Node documents for it', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(compileCacheDir({ HOME: '/h', NODE_COMPILE_CACHE: '/elsewhere' }, platform)).toBe(
        '/elsewhere',
      );
    }
  });
});
