// npm's own install plan for every desktop Trayshare targets, made here with
// `npm install --dry-run --os --cpu`: each native build (rollup, Biome, esbuild, TypeScript,
// rolldown…) that macOS, Windows or Linux needs must be in it, or `npm start` fails there.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DESKTOPS, type Lock, missingBuilds, nativeNeeds, parseDryRun } from './platform-binaries';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
const installedHere = (lockPath: string) => existsSync(join(root, lockPath, 'package.json'));

/** The shape of the lock that broke macOS and Windows: rollup's Linux build only. */
const linuxOnlyLock: Lock = {
  packages: {
    '': {},
    'node_modules/rollup': {
      version: '4.68.7',
      optionalDependencies: {
        '@rollup/rollup-darwin-arm64': '4.68.7',
        '@rollup/rollup-linux-x64-gnu': '4.68.7',
        '@rollup/rollup-linux-x64-musl': '4.68.7',
        '@rollup/rollup-win32-x64-msvc': '4.68.7',
        fsevents: '~2.3.2',
      },
    },
    'node_modules/@rollup/rollup-linux-x64-gnu': {
      version: '4.68.7',
      os: ['linux'],
      cpu: ['x64'],
      libc: ['glibc'],
      optional: true,
    },
    'node_modules/@rollup/rollup-linux-x64-musl': {
      version: '4.68.7',
      os: ['linux'],
      cpu: ['x64'],
      libc: ['musl'],
      optional: true,
    },
  },
};

describe('native builds for every desktop', () => {
  it('finds a lock that names only the Linux build, and says which platform lacks one', () => {
    const mac = DESKTOPS[0]!;
    expect(missingBuilds(linuxOnlyLock, mac, [], () => false)).toEqual([
      'rollup@4.68.7: package-lock.json has no build for darwin-arm64',
    ]);
    const linux = DESKTOPS[3]!;
    expect(missingBuilds(linuxOnlyLock, linux, [], () => true)).toEqual([]);
    // Present in the lock but dropped from the plan is missing too.
    expect(
      missingBuilds(
        linuxOnlyLock,
        linux,
        [{ action: 'remove', name: '@rollup/rollup-linux-x64-gnu', version: '4.68.7' }],
        () => true,
      ),
    ).toEqual([
      "rollup@4.68.7: npm's plan for linux-x64 installs none of @rollup/rollup-linux-x64-gnu",
    ]);
  });

  it("reads npm's dry-run lines", () => {
    expect(
      parseDryRun(
        'add fsevents 2.3.3\nremove @esbuild/linux-x64 0.28.2\n\nadded 1 package, and removed 1 package in 2s\n',
      ),
    ).toEqual([
      { action: 'add', name: 'fsevents', version: '2.3.3' },
      { action: 'remove', name: '@esbuild/linux-x64', version: '0.28.2' },
    ]);
  });

  it('knows the packages that load native builds', () => {
    const parents = nativeNeeds(lock, DESKTOPS[0]!).map((n) => n.parent);
    expect(parents).toEqual(expect.arrayContaining(['rollup', '@biomejs/biome', 'esbuild']));
  });

  for (const platform of DESKTOPS) {
    it(`installs every native build on ${platform.os}-${platform.cpu}`, async () => {
      const { stdout } = await promisify(execFile)(
        'npm',
        [
          'install',
          '--dry-run',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          `--os=${platform.os}`,
          `--cpu=${platform.cpu}`,
          ...(platform.libc ? [`--libc=${platform.libc}`] : []),
        ],
        {
          cwd: root,
          maxBuffer: 16 * 1024 * 1024,
          env: { ...process.env, npm_config_loglevel: 'warn' },
        },
      );
      expect(missingBuilds(lock, platform, parseDryRun(stdout), installedHere)).toEqual([]);
    }, 120_000);
  }
});
