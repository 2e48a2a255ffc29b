import { describe, expect, it } from 'vitest';
import { linuxStartProblem, type PreflightEnv } from './electron-preflight.mjs';

const electronPath = '/home/ann/trayshare/node_modules/electron/dist/electron';
const helper = '/home/ann/trayshare/node_modules/electron/dist/chrome-sandbox';

function env(
  over: Partial<PreflightEnv> & {
    restrict?: string | null;
    helperStat?: PreflightEnv['statMode'] extends (p: string) => infer R ? R : never;
  },
): PreflightEnv {
  return {
    platform: 'linux',
    uid: 1000,
    electronPath,
    readText: (path) =>
      path === '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'
        ? over.restrict === undefined
          ? '1\n'
          : over.restrict
        : null,
    statMode: (path) =>
      path === helper
        ? over.helperStat === undefined
          ? { mode: 0o100755, uid: 1000 }
          : over.helperStat
        : null,
    ...over,
  };
}

describe('starting Electron on Linux', () => {
  it('on Ubuntu 24.04 with npm’s chrome-sandbox, prints the exact commands that fix it', () => {
    const problem = linuxStartProblem(env({}));
    expect(problem).toContain(`sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`);
    expect(problem).toContain('Ubuntu 23.10 and later');
    expect(problem).not.toContain('--no-sandbox');
  });

  it('starts once the helper is root-owned and setuid, or where user namespaces are free', () => {
    expect(linuxStartProblem(env({ helperStat: { mode: 0o104755, uid: 0 } }))).toBeNull();
    expect(linuxStartProblem(env({ restrict: '0\n' }))).toBeNull();
    expect(linuxStartProblem(env({ restrict: null }))).toBeNull();
  });

  it('says plainly that Electron does not run as root, instead of turning the sandbox off', () => {
    const problem = linuxStartProblem(env({ uid: 0 }));
    expect(problem).toContain('will not start as root');
    expect(problem).toContain('npm run harness');
  });

  it('has nothing to say on macOS and Windows', () => {
    expect(linuxStartProblem(env({ platform: 'darwin', uid: 0 }))).toBeNull();
    expect(linuxStartProblem(env({ platform: 'win32', uid: undefined }))).toBeNull();
  });
});
