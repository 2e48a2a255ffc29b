import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  debianPackages,
  describeEngines,
  nodeVersionProblem,
  satisfiesEngines,
} from './setup-checks.mjs';

const ENGINES = '^22.20 || ^24.12 || >=25';

describe('the set-up checks', () => {
  it('reads engines ranges as npm does', () => {
    for (const v of [
      '20.20.2',
      '22.12.0',
      '22.19.9',
      '22.20.0',
      '22.23.3',
      '23.11.0',
      '24.0.0',
      '24.11.1',
      '24.12.0',
      '24.21.0',
      '26.10.0',
    ]) {
      expect(satisfiesEngines(v, ENGINES), v).toBe(semver.satisfies(v, ENGINES));
    }
    expect(() => satisfiesEngines('22.0.0', '~22')).toThrow(/not of the form/);
    expect(describeEngines(ENGINES)).toBe(
      '22.20 or a later 22, or 24.12 or a later 24, or 25.0 or newer',
    );
  });

  it('tells someone on an old Node what to install, in their OS’s words', () => {
    expect(nodeVersionProblem('22.23.3', ENGINES, 'linux')).toBeNull();
    const mac = nodeVersionProblem('20.20.2', ENGINES, 'darwin');
    expect(mac).toContain(
      'needs Node.js 22.20 or a later 22, or 24.12 or a later 24, or 25.0 or newer',
    );
    expect(mac).toContain('this is 20.20.2');
    expect(mac).toContain('brew install node@22');
    expect(nodeVersionProblem('20.20.2', ENGINES, 'win32')).toContain('winget install');
    expect(nodeVersionProblem('20.20.2', ENGINES, 'linux')).toContain('nvm install 22');
  });

  it('installs keytar’s build needs for the app, and the test machinery only for tests', () => {
    expect(debianPackages('app')).toEqual(['libsecret-1-dev', 'python3', 'make', 'g++']);
    expect(debianPackages('test')).toEqual(
      expect.arrayContaining(['libsecret-1-dev', 'gnome-keyring', 'dbus', 'chromium', 'xvfb']),
    );
  });

  it("brings the tools that judge the package managers' files", () => {
    expect(debianPackages('test')).toEqual(
      expect.arrayContaining(['appstream', 'desktop-file-utils', 'flatpak-builder', 'ruby']),
    );
    expect(debianPackages('app')).not.toContain('flatpak-builder');
  });

  it("leaves Ubuntu's chromium (a snap installer) out: Playwright's Chromium is used there", () => {
    const ubuntu = 'NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n';
    const debian = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
    expect(debianPackages('test', ubuntu)).not.toContain('chromium');
    expect(debianPackages('test', ubuntu)).toEqual(
      expect.arrayContaining(['libsecret-1-dev', 'gnome-keyring', 'dbus', 'xvfb']),
    );
    expect(debianPackages('test', debian)).toContain('chromium');
  });
});
