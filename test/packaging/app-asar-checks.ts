// Packs a project with `electron-builder --linux dir` (its real CLI and the project's own
// electron-builder.yml) against the Electron stand-in, then checks what went into the package.
// Only three settings are overridden on the command line, for this machine: electronDist (no
// Electron download), the output folder (a temp folder) and npmRebuild off (rebuilding keytar
// for Electron needs Electron's headers from the network; release builds do rebuild it).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { extractAll, listPackage, statFile } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootMain } from '../boot/boot';
import { expectHealthyBoot } from '../boot/expect-boot';
import { makeElectronStandin } from './electron-standin';

const run = promisify(execFile);

// A fuse wire holds ASCII '0' (off) or '1' (on) per fuse.
const OFF = '0'.charCodeAt(0);
const ON = '1'.charCodeAt(0);

interface PackageJson {
  main: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The bundles electron-vite writes; `npm run build` makes them (npm test runs it first). */
const bundles = (pkg: PackageJson) => [
  pkg.main,
  'out/preload/index.cjs',
  'out/renderer/index.html',
];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

export function describeAppAsar(projectDir: string): void {
  let work: string;
  let pkg: PackageJson;
  let appDir: string;
  let asar: string;
  let entries: string[];

  beforeAll(async () => {
    pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as PackageJson;
    const missing: string[] = [];
    for (const bundle of bundles(pkg)) {
      await stat(join(projectDir, bundle)).catch(() => missing.push(bundle));
    }
    if (missing.length > 0) {
      throw new Error(
        `Cannot pack: ${missing.join(', ')} missing in ${projectDir}. Build first with \`npm run build\` (npm test runs it before vitest).`,
      );
    }

    work = await mkdtemp(join(tmpdir(), 'trayshare-pack-'));
    const electronDist = await makeElectronStandin(join(work, 'electron-dist'));
    const output = join(work, 'dist');
    try {
      await run(
        process.execPath,
        [
          join(projectDir, 'node_modules', 'electron-builder', 'cli.js'),
          '--linux',
          'dir',
          '--publish',
          'never',
          '--projectDir',
          projectDir,
          `-c.electronDist=${electronDist}`,
          `-c.directories.output=${output}`,
          '-c.npmRebuild=false',
        ],
        { cwd: projectDir, maxBuffer: 16 * 1024 * 1024 },
      );
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`electron-builder --linux dir failed:\n${stdout}\n${stderr}`);
    }
    appDir = join(output, 'linux-unpacked');
    asar = join(appDir, 'resources', 'app.asar');
    entries = listPackage(asar, { isPack: false });
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  describe('the packed app (electron-builder --linux dir)', () => {
    it('holds the main, preload and renderer bundles, complete', async () => {
      for (const bundle of bundles(pkg)) expect(entries).toContain(`/${bundle}`);
      for (const dir of ['out/main', 'out/preload', 'out/renderer']) {
        for (const file of await filesUnder(join(projectDir, dir))) {
          const inside = `/${relative(projectDir, file)}`;
          if (!inside.endsWith('.map')) expect(entries).toContain(inside);
        }
      }
    });

    it("holds keytar's native module, unpacked so it can be loaded", async () => {
      const native = '/node_modules/keytar/build/Release/keytar.node';
      expect(entries).toContain(native);
      expect(statFile(asar, native.slice(1))).toHaveProperty('unpacked', true);
      const onDisk = join(`${asar}.unpacked`, native);
      expect((await stat(onDisk)).size).toBeGreaterThan(0);
    });

    it('holds every production dependency and no development one', () => {
      for (const name of Object.keys(pkg.dependencies ?? {})) {
        expect(entries).toContain(`/node_modules/${name}/package.json`);
      }
      // Development-only, as the lock marks it: a devDependency that a production package also
      // needs (semver, for conf) belongs in the package.
      const lock = JSON.parse(readFileSync(join(projectDir, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { dev?: boolean }>;
      };
      const dev = Object.keys(pkg.devDependencies ?? {}).filter(
        (name) => lock.packages[`node_modules/${name}`]?.dev === true,
      );
      expect(dev.length).toBeGreaterThan(10);
      const packedDev = dev.filter((name) => entries.includes(`/node_modules/${name}`));
      expect(packedDev).toEqual([]);
    });

    it('holds no tests, benchmarks, sources, source maps, CLI or project files', () => {
      const unwanted = entries.filter(
        (entry) =>
          /^\/(test|bench|main|preload|renderer|build|\.ci|out\/cli)(\/|$)/.test(entry) ||
          /\.(ts|tsx|mts|cts|map)$/.test(entry) ||
          /^\/(electron-builder\.yml|tsconfig\.json|biome\.json|package-lock\.json|README\.md)$/.test(
            entry,
          ),
      );
      expect(unwanted).toEqual([]);
    });

    it('carries the tray icons and the app icon as resources', async () => {
      const tray = (await readdir(join(projectDir, 'build', 'tray'))).filter((f) =>
        f.endsWith('.png'),
      );
      expect(tray.length).toBeGreaterThan(0);
      expect((await readdir(join(appDir, 'resources', 'tray'))).sort()).toEqual(tray.sort());
      expect((await stat(join(appDir, 'resources', 'icon.png'))).size).toBeGreaterThan(0);
    });

    it('boots from the package as macOS, Windows and Linux, with only what the package holds', async () => {
      // Unpacked outside the checkout: every import must resolve from the package's own
      // node_modules (electron itself is the recording fake).
      const unpacked = join(work, 'unpacked-app');
      extractAll(asar, unpacked);
      for (const platform of ['darwin', 'win32', 'linux'] as const) {
        const boot = await bootMain({
          appPath: unpacked,
          platform,
          packaged: true,
          resourcesPath: join(appDir, 'resources'),
        });
        expectHealthyBoot(boot, platform);
        // An installed app keeps Electron's own data folder.
        expect(boot.calls('app.setPath')).toEqual([]);
        // The installed app, and only it, handles a team's trayshare://setup links.
        expect(boot.calls('app.setAsDefaultProtocolClient')).toMatchObject([
          { args: ['trayshare'], beforeReady: false },
        ]);
      }
    }, 120_000);

    it('flips the Electron fuses in the executable', async () => {
      const wire = await getCurrentFuseWire(join(appDir, 'trayshare'));
      const state = (fuse: FuseV1Options) => wire[fuse];
      expect(state(FuseV1Options.RunAsNode)).toBe(OFF);
      expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(OFF);
      expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe(OFF);
      expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(ON);
      expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe(ON);
      expect(state(FuseV1Options.EnableCookieEncryption)).toBe(ON);
    });
  });
}
