// The built main process, booted as an installed app under the recording Electron fake: it asks
// the feed named in resources/app-update.yml at start (through Electron's net, which the fake
// records and fails as offline: the failure stays quiet), except where the build updates some
// other way. The development run's boots (boot.test.ts) never ask.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Boot, bootMain } from './boot';
import { expectHealthyBoot } from './expect-boot';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FEED = 'https://updates.trayshare.example/feed/';
let resources: string;

/** A resources folder as electron-builder lays it out, with the update config it writes. */
async function resourcesWith(extra: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-resources-'));
  await cp(join(root, 'build', 'tray'), join(dir, 'tray'), { recursive: true });
  await cp(join(root, 'build', 'icons', '256x256.png'), join(dir, 'icon.png'));
  await writeFile(
    join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${FEED}\nupdaterCacheDirName: trayshare-updater\n`,
  );
  for (const [name, text] of Object.entries(extra)) await writeFile(join(dir, name), text);
  return dir;
}

const feedRequests = (boot: Boot) => boot.calls('net.request').map((c) => c.args[0]);

beforeAll(async () => {
  resources = await resourcesWith({});
});
afterAll(async () => {
  await rm(resources, { recursive: true, force: true });
});

describe('an installed app checks for updates at start', () => {
  const cases = [
    { platform: 'darwin', channel: 'latest-mac.yml', env: {} },
    { platform: 'win32', channel: 'latest.yml', env: {} },
    {
      platform: 'linux',
      channel: 'latest-linux.yml',
      env: { APPIMAGE: '/opt/Trayshare.AppImage' },
    },
  ] as const;
  for (const { platform, channel, env } of cases) {
    it(`on ${platform}, quietly when offline`, async () => {
      const boot = await bootMain({
        appPath: root,
        platform,
        packaged: true,
        resourcesPath: resources,
        env,
      });
      expectHealthyBoot(boot, platform);
      expect(feedRequests(boot)).toEqual([`${FEED}${channel}`]);
      expect(boot.stdout).toContain('Updates: checking now and every 6 hours');
      expect(boot.stdout).toMatch(/Updates: offline: net::ERR_INTERNET_DISCONNECTED/);
      // In the log file as one warning, for "Report a problem"; no dialog (expectHealthyBoot).
      const logged = [...boot.logs.values()].join('\n');
      expect(logged).toMatch(/\[info\]\s+Updates: checking now and every 6 hours/);
      expect(logged).toMatch(/\[warn\]\s+Updates: offline: net::ERR_INTERNET_DISCONNECTED/);
    }, 60_000);
  }
});

describe('builds that update some other way never ask', () => {
  it('a Flatpak, though it carries the deb it was made from, and it says how to update it', async () => {
    const deb = await resourcesWith({ 'package-type': 'deb\n' });
    try {
      const boot = await bootMain({
        appPath: root,
        platform: 'linux',
        packaged: true,
        resourcesPath: deb,
        env: { FLATPAK_ID: 'app.trayshare.Trayshare' },
      });
      expectHealthyBoot(boot, 'linux');
      expect(feedRequests(boot)).toEqual([]);
      expect(boot.stdout).toContain(
        'Updates: not checking (Installed with Flatpak: update it with flatpak update, or in your software centre.)',
      );
    } finally {
      await rm(deb, { recursive: true, force: true });
    }
  }, 60_000);

  it('the deb (resources/package-type), and a Linux run that is not an AppImage', async () => {
    const deb = await resourcesWith({ 'package-type': 'deb\n' });
    try {
      const fromDeb = await bootMain({
        appPath: root,
        platform: 'linux',
        packaged: true,
        resourcesPath: deb,
        env: { APPIMAGE: '' },
      });
      expectHealthyBoot(fromDeb, 'linux');
      expect(feedRequests(fromDeb)).toEqual([]);
      expect(fromDeb.calls('session.fromPartition')).toEqual([]);
      expect(fromDeb.stdout).toContain(
        'Updates: not checking (Installed from the deb package: update it with apt or your package manager.)',
      );
    } finally {
      await rm(deb, { recursive: true, force: true });
    }
    const unpackedLinux = await bootMain({
      appPath: root,
      platform: 'linux',
      packaged: true,
      resourcesPath: resources,
      env: { APPIMAGE: '' },
    });
    expectHealthyBoot(unpackedLinux, 'linux');
    expect(feedRequests(unpackedLinux)).toEqual([]);
    expect(unpackedLinux.stdout).toMatch(/Updates: not checking \(Only the AppImage/);
  }, 60_000);
});
