// `npm run manifests` on stand-ins named as electron-builder names the release's files, each
// manifest then judged by its vendor: winget's and Scoop's published JSON schemas
// (vendor-schemas/, with source and commit), Ruby's parser for the cask, flatpak-builder for the
// Flathub manifest, appstreamcli for the metainfo and desktop-file-validate for the entry.
// Tools a developer's macOS or Windows machine lacks are skipped, the reason in the test's name;
// CI installs them (build/scripts/setup-checks.mjs).
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { UUID } from 'builder-util-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  metainfo,
  APP_ID as SCRIPT_APP_ID,
  DESKTOP_ID as SCRIPT_DESKTOP_ID,
} from '../../build/scripts/manifests.mjs';
import { APP_ID, DESKTOP_ID } from '../../main/electron/app-identity';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'build', 'scripts', 'manifests.mjs');
const run = promisify(execFile);
const schemas = join(root, 'test', 'packaging', 'vendor-schemas');

const tool = (name: string, ...args: string[]) =>
  spawnSync(name, args, { stdio: 'ignore' }).error === undefined;
const has = {
  ruby: tool('ruby', '--version'),
  flatpakBuilder: tool('flatpak-builder', '--version'),
  appstreamcli: tool('appstreamcli', '--version'),
  desktopFileValidate: tool('desktop-file-validate', '--help'),
};
const needs = (ok: boolean, what: string) => (ok ? '' : ` (skipped: ${what} is not installed)`);

// The names electron-builder 26 gives this configuration's files on a GitHub release, spelled
// out here apart from the script: dmg per arch (x64 without a suffix), the NSIS installer with
// its spaces turned into dashes for GitHub, the deb with Debian's arch.
const VERSION = '1.2.3';
const STAND_INS = {
  macX64: 'Trayshare-1.2.3.dmg',
  macArm64: 'Trayshare-1.2.3-arm64.dmg',
  win: 'Trayshare-Setup-1.2.3.exe',
  deb: 'trayshare_1.2.3_amd64.deb',
};
const REPO = 'trayshare-team/trayshare';

let scratch: string;
let artifacts: string;
let out: string;
const sums: Record<keyof typeof STAND_INS, string> = { macX64: '', macArm64: '', win: '', deb: '' };

async function manifests(outDir: string, ...extra: string[]) {
  return run(process.execPath, [
    script,
    '--version',
    VERSION,
    '--artifacts',
    artifacts,
    '--out',
    outDir,
    '--repo',
    REPO,
    '--date',
    '2026-12-01',
    ...extra,
  ]);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'trayshare-manifests-'));
  artifacts = join(scratch, 'artifacts');
  out = join(scratch, 'out');
  await mkdir(artifacts);
  for (const [key, name] of Object.entries(STAND_INS) as [keyof typeof STAND_INS, string][]) {
    // Different bytes in each, so a sum put on the wrong file is caught.
    const bytes = randomBytes(64 * 1024);
    await writeFile(join(artifacts, name), bytes);
    sums[key] = createHash('sha256').update(bytes).digest('hex');
  }
  await manifests(out, '--mac-notarised');
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const wingetDir = () => join(out, 'winget', 'manifests', 't', 'Trayshare', 'Trayshare', VERSION);
const flathubDir = () => join(out, 'flathub', DESKTOP_ID);
const readYaml = async (path: string) => parse(await readFile(path, 'utf8'));

function validator(schemaFile: string) {
  // Not strict: the vendors' schemas are written for their own validators, not ajv's strict
  // mode. winget's "long" format (a 64-bit integer, already bounded by min/max) is its own.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('long', true);
  return ajv.compile(JSON.parse(readFileSync(join(schemas, schemaFile), 'utf8')));
}

describe('the script agrees with the app', () => {
  it('on the appId and the desktop id', () => {
    expect(SCRIPT_APP_ID).toBe(APP_ID);
    expect(SCRIPT_DESKTOP_ID).toBe(DESKTOP_ID);
  });
});

describe('Homebrew cask', () => {
  const cask = () => readFileSync(join(out, 'homebrew', 'Casks', 'trayshare.rb'), 'utf8');

  it('has each required stanza, with the sum of each Mac dmg', () => {
    const text = cask();
    expect(text).toMatch(/^cask "trayshare" do$/m);
    expect(text).toContain(`version "${VERSION}"`);
    expect(text).toMatch(
      new RegExp(`sha256 arm:\\s+"${sums.macArm64}",\\s+intel:\\s+"${sums.macX64}"`),
    );
    expect(text).toContain('arch arm: "-arm64", intel: ""');
    // With #{version} and #{arch} filled in as brew does, the url names each stand-in.
    const url = /url "([^"]+)"/.exec(text)?.[1] ?? '';
    const fill = (arch: string) => url.replaceAll('#{version}', VERSION).replace('#{arch}', arch);
    expect(fill('')).toBe(
      `https://github.com/${REPO}/releases/download/v1.2.3/${STAND_INS.macX64}`,
    );
    expect(fill('-arm64')).toBe(
      `https://github.com/${REPO}/releases/download/v1.2.3/${STAND_INS.macArm64}`,
    );
    expect(text).toContain('name "Trayshare"');
    expect(text).toMatch(/^ {2}desc "[^"]+"$/m);
    expect(text).toContain('homepage "https://trayshare.app"');
    expect(text).toContain('auto_updates true');
    expect(text).toContain('depends_on macos: :ventura');
    expect(text).toContain('app "Trayshare.app"');
    for (const path of [
      '~/Library/Application Support/Trayshare',
      '~/Library/Logs/Trayshare',
      `~/Library/Preferences/${APP_ID}.plist`,
      `~/Library/Saved Application State/${APP_ID}.savedState`,
      `~/Library/Caches/${APP_ID}.ShipIt`,
    ]) {
      expect(text).toContain(`"${path}"`);
    }
  });

  it.skipIf(!has.ruby)(`is valid Ruby (ruby -c)${needs(has.ruby, 'ruby')}`, async () => {
    const { stdout } = await run('ruby', ['-c', join(out, 'homebrew', 'Casks', 'trayshare.rb')]);
    expect(stdout).toContain('Syntax OK');
  });

  it('is not written from a build that is not signed and notarised, and says why', async () => {
    const unsigned = join(scratch, 'unsigned');
    const { stderr } = await manifests(unsigned);
    expect(existsSync(join(unsigned, 'homebrew'))).toBe(false);
    expect(stderr).toMatch(/Homebrew cask: the macOS build is not signed and notarised/);
    // The others are still written.
    expect(existsSync(join(unsigned, 'scoop', 'trayshare.json'))).toBe(true);
  });
});

describe('winget manifests', () => {
  const files = {
    version: 'Trayshare.Trayshare.yaml',
    defaultLocale: 'Trayshare.Trayshare.locale.en-US.yaml',
    installer: 'Trayshare.Trayshare.installer.yaml',
  };

  for (const [type, file] of Object.entries(files)) {
    it(`${file} is valid by winget's ${type} schema 1.28.0`, async () => {
      const manifest = await readYaml(join(wingetDir(), file));
      const validate = validator(`winget/manifest.${type}.1.28.0.json`);
      expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
      expect(manifest.ManifestVersion).toBe('1.28.0');
      expect(manifest.PackageVersion).toBe(VERSION);
    });
  }

  it("installs the NSIS installer per user, by its sum, under electron-builder's uninstall key", async () => {
    const installer = await readYaml(join(wingetDir(), files.installer));
    expect(installer).toMatchObject({
      InstallerType: 'nullsoft',
      Scope: 'user',
      UpgradeBehavior: 'install',
      Protocols: ['trayshare'],
    });
    expect(installer.Installers).toEqual([
      {
        Architecture: 'x64',
        InstallerUrl: `https://github.com/${REPO}/releases/download/v1.2.3/${STAND_INS.win}`,
        InstallerSha256: sums.win.toUpperCase(),
      },
    ]);
    // electron-builder's own function, with its namespace (app-builder-lib NsisTarget).
    const namespace = UUID.parse('50e065bc-3134-11e6-9bab-38c9862bdaf3');
    expect(installer.ProductCode).toBe(UUID.v5(APP_ID, namespace));
  });

  it('a manifest winget would refuse is caught by the schema', () => {
    const validate = validator('winget/manifest.installer.1.28.0.json');
    expect(
      validate({
        PackageIdentifier: 'Trayshare.Trayshare',
        PackageVersion: VERSION,
        InstallerType: 'nsis',
        Installers: [],
        ManifestType: 'installer',
        ManifestVersion: '1.28.0',
      }),
    ).toBe(false);
  });
});

describe('Scoop manifest', () => {
  const read = async () => JSON.parse(await readFile(join(out, 'scoop', 'trayshare.json'), 'utf8'));

  it("is valid by Scoop's schema.json, with checkver and autoupdate", async () => {
    const manifest = await read();
    const validate = validator('scoop/schema.json');
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    expect(manifest.checkver).toEqual({ github: `https://github.com/${REPO}` });
    expect(manifest.autoupdate.architecture['64bit'].url).toBe(
      `https://github.com/${REPO}/releases/download/v$version/Trayshare-Setup-$version.exe#/dl.7z`,
    );
  });

  it("opens the installer's sum-checked archive", async () => {
    const x64 = (await read()).architecture['64bit'];
    expect(x64.hash).toBe(sums.win);
    expect(x64.url).toBe(
      `https://github.com/${REPO}/releases/download/v1.2.3/${STAND_INS.win}#/dl.7z`,
    );
  });
});

describe('Flathub', () => {
  const manifestPath = () => join(flathubDir(), `${DESKTOP_ID}.yml`);

  it('the manifest repackages the deb by its sum, on the Electron BaseApp through zypak', async () => {
    const manifest = await readYaml(manifestPath());
    expect(manifest['app-id']).toBe(DESKTOP_ID);
    expect(manifest.base).toBe('org.electronjs.Electron2.BaseApp');
    const sources = manifest.modules[0].sources;
    expect(sources[0]).toMatchObject({
      type: 'file',
      url: `https://github.com/${REPO}/releases/download/v1.2.3/${STAND_INS.deb}`,
      sha256: sums.deb,
    });
    const launcher = sources.find((s: { type: string }) => s.type === 'script');
    expect(launcher.commands.join('\n')).toContain('zypak-wrapper /app/trayshare/trayshare');
  });

  it('asks only for what Trayshare uses, and no home folder', async () => {
    const manifest = await readYaml(manifestPath());
    expect([...manifest['finish-args']].sort()).toEqual(
      [
        '--share=network',
        '--share=ipc',
        '--socket=wayland',
        '--socket=fallback-x11',
        '--talk-name=org.freedesktop.secrets',
        '--talk-name=org.kde.StatusNotifierWatcher',
        '--talk-name=org.freedesktop.Notifications',
      ].sort(),
    );
    expect(manifest['finish-args'].some((a: string) => a.startsWith('--filesystem'))).toBe(false);
  });

  it.skipIf(!has.flatpakBuilder)(
    `flatpak-builder --show-manifest parses it${needs(has.flatpakBuilder, 'flatpak-builder')}`,
    async () => {
      // In the output folder: flatpak-builder makes its state folder (.flatpak-builder) in
      // the folder it runs in, which must not be the repository.
      const { stdout } = await run('flatpak-builder', ['--show-manifest', manifestPath()], {
        cwd: out,
      });
      expect(JSON.parse(stdout).id).toBe(DESKTOP_ID);
    },
  );

  it.skipIf(!has.appstreamcli)(
    `the metainfo passes appstreamcli validate --no-net${needs(has.appstreamcli, 'appstreamcli')}`,
    async () => {
      const path = join(flathubDir(), `${DESKTOP_ID}.metainfo.xml`);
      await run('appstreamcli', ['validate', '--no-net', path]);
      const text = await readFile(path, 'utf8');
      expect(text).toContain(`<launchable type="desktop-id">${DESKTOP_ID}.desktop</launchable>`);
      expect(text).toContain('<release version="1.2.3" date="2026-12-01">');
      expect(text).toContain('<content_rating type="oars-1.1" />');
      expect(text).toContain('<screenshot type="default">');
    },
  );

  // desktop-file-validate is a Linux tool (desktop-file-utils); the probe above finds it or not.
  it.skipIf(process.platform === 'win32' || !has.desktopFileValidate)(
    `the desktop entry passes desktop-file-validate${needs(has.desktopFileValidate, 'desktop-file-validate')}`,
    async () => {
      await run('desktop-file-validate', [join(flathubDir(), `${DESKTOP_ID}.desktop`)]);
    },
  );
});

describe('the metainfo shipped in the deb', () => {
  const committed = join(root, 'build', 'linux', `${DESKTOP_ID}.metainfo.xml`);

  it("is the script's, and electron-builder puts it where AppStream looks", async () => {
    expect(await readFile(committed, 'utf8')).toBe(metainfo({ repo: 'trayshare/trayshare' }));
    const config = await readFile(join(root, 'electron-builder.yml'), 'utf8');
    expect(config).toContain(
      `build/linux/${DESKTOP_ID}.metainfo.xml=/usr/share/metainfo/${DESKTOP_ID}.metainfo.xml`,
    );
  });

  it.skipIf(!has.appstreamcli)(
    `passes appstreamcli validate --no-net${needs(has.appstreamcli, 'appstreamcli')}`,
    async () => {
      await run('appstreamcli', ['validate', '--no-net', committed]);
    },
  );
});
