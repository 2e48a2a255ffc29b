import { describe, expect, it } from 'vitest';
import { programAt } from '../system-programs';
import { execFileRunner } from './exec-runner';
import { createFileManagerIntegration, launcherPath } from './integration';

describe('launcherPath', () => {
  it('starts an AppImage through the image, not its temporary mount', () => {
    const env = { APPIMAGE: '/home/a/Apps/Trayshare.AppImage' };
    expect(launcherPath('/tmp/.mount_TraysXYZ/trayshare', env)).toBe(env.APPIMAGE);
    expect(launcherPath('/opt/Trayshare/trayshare', {})).toBe('/opt/Trayshare/trayshare');
  });
});

// Node itself is the program started, so this runs on Windows and macOS as on Linux.
describe('execFileRunner', () => {
  it('passes arguments without a shell and returns a failed exit as a result', async () => {
    const echo = 'process.stdout.write(process.argv.slice(1).join(" ") + "\\n")';
    const echoed = await execFileRunner(programAt(process.execPath), [
      '-e',
      echo,
      '"%1"',
      '$HOME',
      '*',
    ]);
    expect(echoed).toEqual({ code: 0, stdout: '"%1" $HOME *\n', stderr: '' });
    const fail = 'process.stderr.write("no\\n"); process.exit(3)';
    const failed = await execFileRunner(programAt(process.execPath), ['-e', fail]);
    expect(failed).toEqual({ code: 3, stdout: '', stderr: 'no\n' });
  });
});

describe('macOS', () => {
  it('has nothing to install and says so', async () => {
    const integration = createFileManagerIntegration({
      platform: 'darwin',
      app: { exe: '/Applications/Trayshare.app/Contents/MacOS/Trayshare' },
      home: '/Users/someone',
      env: {},
    });
    const status = await integration.install();
    expect(status.state).toBe('builtin');
    expect(status.entries).toEqual([]);
    expect(status.message).toMatch(/Open With/);
  });
});
