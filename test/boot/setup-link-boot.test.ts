// The built main process started by the OS with a team's set-up link on its command line (how
// Windows and Linux open trayshare:// links), under the recording Electron fake: it opens
// Settings, where the page takes the checked link; a malformed link is refused with a
// notification and never reaches the page. Needs `npm run build`.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { setupLinkFor } from '../../main/portable/setup-link';
import { bootMain } from './boot';
import { expectHealthyBoot } from './expect-boot';

const root = fileURLToPath(new URL('../..', import.meta.url));
const link = setupLinkFor({
  baseUrl: 'https://slack.com',
  clientId: '1234567890.1234567890123',
  name: 'Acme',
});

describe('a set-up link on the command line', () => {
  for (const platform of ['win32', 'linux'] as const) {
    it(`opens the window on it, leaving the scheme to the installed app (${platform})`, async () => {
      const boot = await bootMain({ appPath: root, platform, packaged: false, args: [link] });
      expectHealthyBoot(boot, platform);
      // A development run reads the link but leaves the scheme to the installed app, as it
      // keeps its own name and data folder (test/boot/boot.test.ts).
      expect(boot.calls('app.setAsDefaultProtocolClient')).toEqual([]);
      const windows = boot.calls('BrowserWindow.loadFile');
      expect(windows.some((w) => JSON.stringify(w.args[1]).includes('settings'))).toBe(true);
      // The page, still loading when the link came, takes it (test/shell/setup-link.test.ts
      // drives that call); the fake shows the handler is bound.
      expect(boot.calls('ipcMain.handle').map((c) => c.args[0])).toContain(
        'trayshare:takeSetupLink',
      );
      const titles = boot
        .calls('new Notification')
        .map((c) => (c.args[0] as { title: string }).title);
      expect(titles).not.toContain('Set-up link refused');
    }, 60_000);
  }

  it('refuses a malformed one: a notification says so and the page gets nothing', async () => {
    const boot = await bootMain({
      appPath: root,
      platform: 'linux',
      packaged: false,
      args: [`${link}&token=xoxb-1-2-3`],
    });
    expectHealthyBoot(boot, 'linux');
    const titles = boot
      .calls('new Notification')
      .map((c) => (c.args[0] as { title: string }).title);
    expect(titles).toContain('Set-up link refused');
    expect(boot.calls('webContents.send').map((c) => c.args[0])).not.toContain(
      'trayshare:event:setup-link',
    );
    // Neither the link nor its token is written out.
    expect(boot.stdout + boot.stderr).not.toContain('xoxb-1-2-3');
  }, 60_000);
});
