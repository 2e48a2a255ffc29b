// What release.yml's build step does per OS with the secrets a repository has (or not): the
// decisions of build/scripts/release-build.mjs, checked on any OS. Signing itself runs on
// GitHub's runners only.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { builderArgs, releasePlan, TARGETS } from './release-build.mjs';

// A secret the repository does not have reaches the job as an empty string.
const none = {
  CSC_LINK: '',
  CSC_KEY_PASSWORD: '',
  APPLE_ID: '',
  APPLE_APP_SPECIFIC_PASSWORD: '',
  APPLE_TEAM_ID: '',
  WIN_CSC_LINK: '',
  WIN_CSC_KEY_PASSWORD: '',
};
const all = {
  CSC_LINK: 'mac-p12-base64',
  CSC_KEY_PASSWORD: 'mac-pw',
  APPLE_ID: 'dev@example.com',
  APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh',
  APPLE_TEAM_ID: 'TEAM123456',
  WIN_CSC_LINK: 'win-pfx-base64',
  WIN_CSC_KEY_PASSWORD: 'win-pw',
};

describe('release build', () => {
  it('builds dmg+zip for both Mac archs, NSIS x64 and AppImage+deb x64', () => {
    expect(TARGETS.mac).toEqual(['--mac', 'dmg', 'zip', '--x64', '--arm64']);
    expect(TARGETS.win).toEqual(['--win', 'nsis', '--x64']);
    expect(TARGETS.linux).toEqual(['--linux', 'AppImage', 'deb', '--x64']);
  });

  it('without secrets builds unsigned on purpose, says so, and never signs with a stray identity', () => {
    const mac = releasePlan('mac', { ...none, PATH: '/bin' });
    expect(mac.problem).toBeUndefined();
    expect(mac.env.CSC_IDENTITY_AUTO_DISCOVERY).toBe('false');
    expect(Object.keys(mac.env).sort()).toEqual(['CSC_IDENTITY_AUTO_DISCOVERY', 'PATH']);
    expect(mac.notes.join('\n')).toMatch(/unsigned.*\n.*not notarised/);
    const win = releasePlan('win', none);
    expect(win.problem).toBeUndefined();
    expect(win.notes.join(' ')).toMatch(/unsigned; SmartScreen/);
  });

  it('with every secret, each OS gets only its own certificate; the Mac notarises', () => {
    const mac = releasePlan('mac', all);
    expect(mac.env).toEqual({
      CSC_LINK: all.CSC_LINK,
      CSC_KEY_PASSWORD: all.CSC_KEY_PASSWORD,
      APPLE_ID: all.APPLE_ID,
      APPLE_APP_SPECIFIC_PASSWORD: all.APPLE_APP_SPECIFIC_PASSWORD,
      APPLE_TEAM_ID: all.APPLE_TEAM_ID,
    });
    expect(mac.notes.join(' ')).toMatch(/signing.*notarising/);
    const win = releasePlan('win', all);
    expect(win.env).toEqual({
      WIN_CSC_LINK: all.WIN_CSC_LINK,
      WIN_CSC_KEY_PASSWORD: all.WIN_CSC_KEY_PASSWORD,
    });
    expect(releasePlan('linux', all).env).toEqual({});
  });

  it('never prints a secret, only names', () => {
    for (const os of ['mac', 'win', 'linux'] as const) {
      const text = releasePlan(os, all).notes.join('\n');
      for (const value of Object.values(all)) expect(text).not.toContain(value);
    }
  });

  it('refuses half a set: notarising without a certificate, or a Windows password without its .pfx', () => {
    expect(
      releasePlan('mac', {
        APPLE_ID: 'a',
        APPLE_APP_SPECIFIC_PASSWORD: 'b',
        APPLE_TEAM_ID: 'c',
      }).problem,
    ).toMatch(/only a signed app can be notarised/);
    expect(releasePlan('mac', { ...all, APPLE_TEAM_ID: '' }).problem).toMatch(
      /missing: APPLE_TEAM_ID/,
    );
    expect(releasePlan('win', { WIN_CSC_LINK: 'x' }).problem).toMatch(/go together/);
  });

  it('publishes to the repository the workflow runs in, as the draft electron-builder.yml names', async () => {
    expect(builderArgs('linux', { GITHUB_REPOSITORY: 'acme/trayshare' }, 'always')).toEqual([
      ...TARGETS.linux,
      '--publish',
      'always',
      '-c.publish.owner=acme',
      '-c.publish.repo=trayshare',
    ]);
    expect(builderArgs('win', {}, 'never')).toEqual([...TARGETS.win, '--publish', 'never']);
    const yml = await readFile(new URL('../../electron-builder.yml', import.meta.url), 'utf8');
    expect(yml).toMatch(/^publish:\n {2}provider: github\n {2}releaseType: draft$/m);
  });
});
