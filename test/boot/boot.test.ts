// The built main process, started as Electron would start it on macOS, Windows and Linux
// (process.platform faked), with a recording fake of Electron's API. It cannot show pixels;
// it shows that the bundle loads, calls only what may run before `ready`, hands Electron
// files that exist, and sets up each OS as that OS needs.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bootMain } from './boot';
import { expectHealthyBoot } from './expect-boot';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the main process boots from the checkout (npm start)', () => {
  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    it(`on ${platform}`, async () => {
      const boot = await bootMain({ appPath: root, platform, packaged: false });
      expectHealthyBoot(boot, platform);
      // A development run keeps its own data folder, so it never waits for an installed app.
      const setPath = boot.calls('app.setPath');
      expect(setPath).toHaveLength(1);
      expect(String(setPath[0]!.args[1])).toMatch(/Trayshare \(development\)$/);
      const lock = boot.journal.findIndex((e) => e.call === 'app.requestSingleInstanceLock');
      expect(boot.journal.findIndex((e) => e.call === 'app.setPath')).toBeLessThan(lock);
      // It updates with the checkout: no update feed is ever asked (updates-boot.test.ts).
      expect(boot.calls('net.request')).toEqual([]);
      expect(boot.stdout).toMatch(/Updates: not checking \(This is a development run/);
    }, 60_000);
  }
});
