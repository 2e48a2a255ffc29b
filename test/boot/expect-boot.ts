// The checks every boot of the main process must pass, whatever the layout (checkout or
// package) and the OS it pretends to be.
import { expect } from 'vitest';
import { APP_ID, DEVELOPMENT_APP_ID, DEVELOPMENT_NAME } from '../../main/electron/app-identity';
import { BEFORE_READY_ALLOWED, type Boot } from './boot';

export function expectHealthyBoot(boot: Boot, platform: NodeJS.Platform): void {
  expect(boot.stderr).not.toMatch(/Error|ERR_|Cannot find/);
  expect(boot.code, boot.stderr).toBe(0);
  expect(boot.calls('ready')).toHaveLength(1);
  // Quit from the tray closes the queue cleanly and ends the process.
  expect(boot.calls('exit')).toHaveLength(1);
  expect(boot.calls('dialog.showMessageBox')).toEqual([]);

  const early = boot.journal.filter((e) => e.beforeReady && !BEFORE_READY_ALLOWED.has(e.call));
  expect(early.map((e) => e.call)).toEqual([]);

  for (const entry of boot.journal.filter((e) => e.path !== undefined)) {
    expect(entry.exists, `${entry.call}: ${entry.path}`).toBe(true);
  }
  expect(boot.calls('preload')).not.toHaveLength(0);
  expect(boot.calls('BrowserWindow.loadFile')).not.toHaveLength(0);

  const first = boot.journal[0]!;
  const menuAt = boot.journal.findIndex((e) => e.call === 'Menu.setApplicationMenu');
  const windowAt = boot.journal.findIndex((e) => e.call === 'new BrowserWindow');
  expect(menuAt).toBeGreaterThanOrEqual(0);
  expect(windowAt).toBeGreaterThan(menuAt);
  const menu = boot.journal[menuAt]!.args[0];
  const trays = boot.calls('new Tray');
  expect(trays).toHaveLength(1);

  switch (platform) {
    case 'win32':
      // Who the app is comes before anything else. A development run has a name and AUMID of
      // its own, so its toasts never repoint the installed app's Start-menu shortcut.
      if (boot.packaged) {
        expect(first).toMatchObject({ call: 'app.setAppUserModelId', args: [APP_ID] });
        expect(boot.calls('app.setName')).toEqual([]);
      } else {
        expect(boot.journal.slice(0, 2)).toMatchObject([
          { call: 'app.setName', args: [DEVELOPMENT_NAME] },
          { call: 'app.setAppUserModelId', args: [DEVELOPMENT_APP_ID] },
        ]);
      }
      expect(boot.calls('app.setAppUserModelId')).toHaveLength(1);
      // Clicks from Action Center, after a restart too, reach the app (Windows only API).
      expect(boot.calls('Notification.handleActivation')).toMatchObject([{ beforeReady: false }]);
      expect(menu).toBeNull();
      expect(boot.calls('window icon')).not.toHaveLength(0);
      break;
    case 'linux':
      expect(boot.calls('app.setAppUserModelId')).toEqual([]);
      expect(boot.calls('app.setName')).toEqual([]);
      expect(boot.calls('Notification.handleActivation')).toEqual([]);
      expect(menu).toBeNull();
      expect(boot.calls('window icon')).not.toHaveLength(0);
      break;
    case 'darwin':
      expect(boot.calls('app.setAppUserModelId')).toEqual([]);
      expect(boot.calls('app.setName')).toEqual([]);
      expect(boot.calls('Notification.handleActivation')).toEqual([]);
      expect(menu).toEqual({ menu: [{ role: 'appMenu' }, { role: 'editMenu' }] });
      expect(boot.calls('window icon')).toEqual([]);
      break;
  }
  // The log is in the OS's logs folder, and begins with what runs on what.
  expect(boot.calls('app.getPath').map((e) => e.args[0])).toContain('logs');
  expect([...boot.logs.keys()]).toEqual(['trayshare.log']);
  expect(boot.logs.get('trayshare.log')).toMatch(
    /^\[[\d-]+ [\d:.]+\] \[info\] +Trayshare \d+\.\d+\.\d+\S* started: Node \d+\.\d+\.\d+, /,
  );
  // A first start has no workspace: Settings opens so the person can add one.
  expect(boot.calls('BrowserWindow.loadFile')[0]!.args[1]).toEqual({ hash: 'settings' });
}
