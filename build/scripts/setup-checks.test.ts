import { describe, expect, it } from 'vitest';
import { debianPackages, nodeVersionProblem, satisfiesMinimum } from './setup-checks.mjs';

describe('the set-up checks', () => {
  it('compares Node versions against the engines minimum', () => {
    expect(satisfiesMinimum('22.12.0', '>=22.12')).toBe(true);
    expect(satisfiesMinimum('22.23.3', '>=22.12')).toBe(true);
    expect(satisfiesMinimum('24.0.0', '>=22.12')).toBe(true);
    expect(satisfiesMinimum('22.11.9', '>=22.12')).toBe(false);
    expect(satisfiesMinimum('20.20.2', '>=22.12')).toBe(false);
    expect(() => satisfiesMinimum('22.0.0', '^22')).toThrow(/not of the form/);
  });

  it('tells someone on an old Node what to install, in their OS’s words', () => {
    expect(nodeVersionProblem('22.12.0', '>=22.12', 'linux')).toBeNull();
    const mac = nodeVersionProblem('20.20.2', '>=22.12', 'darwin');
    expect(mac).toContain('needs Node.js 22.12 or newer');
    expect(mac).toContain('this is 20.20.2');
    expect(mac).toContain('brew install node@22');
    expect(nodeVersionProblem('20.20.2', '>=22.12', 'win32')).toContain('winget install');
    expect(nodeVersionProblem('20.20.2', '>=22.12', 'linux')).toContain('nvm install 22');
  });

  it('installs keytar’s build needs for the app, and the test machinery only for tests', () => {
    expect(debianPackages('app')).toEqual(['libsecret-1-dev', 'python3', 'make', 'g++']);
    expect(debianPackages('test')).toEqual(
      expect.arrayContaining(['libsecret-1-dev', 'gnome-keyring', 'dbus', 'chromium', 'xvfb']),
    );
  });
});
