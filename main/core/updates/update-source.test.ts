import { describe, expect, it } from 'vitest';
import { type BuildFacts, updateSource } from './update-source';

const facts = (over: Partial<BuildFacts>): BuildFacts => ({
  platform: 'linux',
  isPackaged: true,
  packageType: null,
  env: {},
  install: 'installer',
  ...over,
});

describe('which builds update themselves', () => {
  it('the installed macOS and Windows (NSIS) apps, and a Linux AppImage', () => {
    expect(updateSource(facts({ platform: 'darwin' }))).toEqual({ updatesItself: true });
    expect(updateSource(facts({ platform: 'win32' }))).toEqual({ updatesItself: true });
    expect(updateSource(facts({ env: { APPIMAGE: '/home/ana/Apps/Trayshare.AppImage' } }))).toEqual(
      { updatesItself: true },
    );
  });

  it('never a development run, on any OS', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      expect(updateSource(facts({ platform, isPackaged: false }))).toMatchObject({
        updatesItself: false,
        reason: expect.stringMatching(/development run/),
      });
    }
  });

  it('never the deb (or rpm, pacman): their package manager does it', () => {
    // electron-builder writes "deb\n"-style files; an AppImage variable does not change that.
    expect(
      updateSource(facts({ packageType: 'deb\n', env: { APPIMAGE: '/tmp/x.AppImage' } })),
    ).toEqual({
      updatesItself: false,
      reason: 'Installed from the deb package: update it with apt or your package manager.',
    });
    expect(updateSource(facts({ packageType: 'rpm' }))).toMatchObject({ updatesItself: false });
    expect(updateSource(facts({ packageType: 'pacman' }))).toMatchObject({ updatesItself: false });
  });

  it('never a Linux run that is not an AppImage, nor a snap', () => {
    expect(updateSource(facts({}))).toMatchObject({
      updatesItself: false,
      reason: expect.stringMatching(/Only the AppImage/),
    });
    expect(updateSource(facts({ env: { SNAP: '/snap/trayshare/3' } }))).toMatchObject({
      updatesItself: false,
      reason: expect.stringMatching(/snap/),
    });
  });

  it('never a Windows portable build', () => {
    expect(
      updateSource(facts({ platform: 'win32', env: { PORTABLE_EXECUTABLE_FILE: 'D:\\T.exe' } })),
    ).toMatchObject({ updatesItself: false, reason: expect.stringMatching(/portable/) });
  });

  it('never a Flatpak, even though it carries the deb it was made from', () => {
    expect(updateSource(facts({ install: 'flatpak', packageType: 'deb\n' }))).toEqual({
      updatesItself: false,
      reason: 'Installed with Flatpak: update it with flatpak update, or in your software centre.',
    });
  });

  it('never a Scoop install, whose copy Scoop keeps', () => {
    expect(updateSource(facts({ platform: 'win32', install: 'scoop' }))).toEqual({
      updatesItself: false,
      reason: 'Installed with Scoop: update it with scoop update trayshare.',
    });
  });

  it('a Homebrew install updates itself, and About names the brew command too', () => {
    expect(updateSource(facts({ platform: 'darwin', install: 'homebrew' }))).toEqual({
      updatesItself: true,
      note: 'Installed with Homebrew: it updates itself, or run brew upgrade --cask trayshare.',
    });
  });
});
