// Which Chromium the renderer tests drive, on each OS (test/renderer/browser.ts). Decided from
// the environment and which files exist, so every OS's choice is checked on any OS.
import { win32 } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from './browser';

const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('the Chromium for renderer tests', () => {
  it('is CHROMIUM_PATH when it is set, whatever else is installed', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' }, 'linux', () => true)).toBe(
      '/opt/chrome/chrome',
    );
  });

  it("is Playwright's own build when it was installed (CI on every OS)", () => {
    const playwrights = chromium.executablePath();
    expect(chromiumPath({}, 'darwin', only(playwrights))).toBe(playwrights);
  });

  it("is Debian's /usr/bin/chromium on Linux without Playwright's build (these machines)", () => {
    expect(chromiumPath({}, 'linux', only('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
  });

  it("is the runner's Google Chrome on macOS and Windows otherwise", () => {
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(chromiumPath({}, 'darwin', only(mac))).toBe(mac);
    const win = win32.join('C:\\Program Files', 'Google', 'Chrome', 'Application', 'chrome.exe');
    expect(chromiumPath({ PROGRAMFILES: 'C:\\Program Files' }, 'win32', only(win))).toBe(win);
  });

  it('fails, saying how to get one, when there is none (never a silent skip)', () => {
    expect(() => chromiumPath({}, 'win32', () => false)).toThrow(
      /npx playwright-core install chromium.*CHROMIUM_PATH/,
    );
  });
});
