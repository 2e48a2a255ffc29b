// electron-builder.yml checked offline with electron-builder's own loader and schema
// validation, the same code `electron-builder` runs before it packs anything.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, DESKTOP_ID } from '../../main/electron/app-identity';

const root = fileURLToPath(new URL('../..', import.meta.url));
const configText = () => readFile(join(root, 'electron-builder.yml'), 'utf8');

async function loadAndValidate(projectDir: string): Promise<Configuration> {
  const config = await getConfig(projectDir, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

let config: Configuration;
let scratch: string;

beforeAll(async () => {
  config = await loadAndValidate(root);
  scratch = await mkdtemp(join(tmpdir(), 'trayshare-config-'));
  await copyFile(join(root, 'package.json'), join(scratch, 'package.json'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The keys of electron-builder.yml with their line numbers, skipping free-form Info.plist data. */
function keysOf(yaml: string): { line: number; key: string }[] {
  const out: { line: number; key: string }[] = [];
  let freeFormIndent = -1;
  yaml.split('\n').forEach((text, line) => {
    const match = /^(\s*)(?:- )?([A-Za-z][\w]*):/.exec(text);
    if (!match) return;
    const indent = match[1]?.length ?? 0;
    if (freeFormIndent >= 0 && indent > freeFormIndent) return;
    freeFormIndent = match[2] === 'extendInfo' ? indent : -1;
    out.push({ line, key: match[2] ?? '' });
  });
  return out;
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own validation", () => {
    expect(config.appId).toBeTruthy();
    expect(config.productName).toBe('Trayshare');
  });

  it('fails validation when any of its keys is mistyped', async () => {
    const yaml = await configText();
    const keys = keysOf(yaml);
    expect(keys.length).toBeGreaterThan(40);
    const lines = yaml.split('\n');
    const accepted: string[] = [];
    for (const { line, key } of keys) {
      const typo = [...lines];
      typo[line] = (typo[line] ?? '').replace(`${key}:`, `${key}x:`);
      await writeFile(join(scratch, 'electron-builder.yml'), typo.join('\n'));
      try {
        await loadAndValidate(scratch);
        accepted.push(`${key}x (line ${line + 1})`);
      } catch (error) {
        expect(String(error)).toMatch(/Invalid configuration object/);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('names only files that exist', async () => {
    const paths = [
      config.mac?.entitlements,
      config.mac?.entitlementsInherit,
      config.mac?.icon,
      config.win?.icon,
      config.nsis?.include,
      config.linux?.icon,
      ...[config.extraResources ?? []].flat().map((r) => (typeof r === 'string' ? r : r.from)),
    ];
    for (const path of paths) {
      expect(path, 'a path in electron-builder.yml').toBeTruthy();
      await expect(stat(join(root, path ?? '')), path ?? '').resolves.toBeDefined();
    }
  });

  // python3's plistlib reads the plist; Windows runners have no python3 on PATH (the Store stub
  // answers instead), and the entitlements matter to the macOS build only.
  it.skipIf(process.platform === 'win32')(
    'gives the hardened runtime the JIT entitlement V8 needs, and nothing broader',
    () => {
      const plist = execFileSync(
        'python3',
        [
          '-c',
          'import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], "rb"))))',
          join(root, config.mac?.entitlements ?? ''),
        ],
        { encoding: 'utf8' },
      );
      expect(JSON.parse(plist)).toEqual({ 'com.apple.security.cs.allow-jit': true });
      expect(config.mac?.hardenedRuntime).toBe(true);
    },
  );

  it('offers Trayshare in Open With for any file on macOS without making it a default', () => {
    const info = config.mac?.extendInfo as Record<string, unknown>;
    const types = info.CFBundleDocumentTypes as Record<string, unknown>[];
    expect(info.LSUIElement).toBe(true);
    expect(types).toContainEqual(
      expect.objectContaining({
        CFBundleTypeRole: 'Viewer',
        LSHandlerRank: 'Alternate',
        LSItemContentTypes: expect.arrayContaining(['public.item']),
      }),
    );
  });

  it('installs per user on Windows and depends on libsecret on Debian', () => {
    expect(config.nsis?.perMachine).toBe(false);
    expect(config.deb?.depends).toContain('libsecret-1-0');
  });
});

describe('what each desktop needs from the package settings', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    homepage?: string;
    desktopName?: string;
    engines: { node: string };
  };

  it('re-signs unsigned Apple-silicon builds after flipping the fuses, or they do not launch', () => {
    expect(config.electronFuses?.resetAdHocDarwinSignature).toBe(true);
  });

  it('names the Linux desktop entry after a reverse-DNS desktopName that Electron uses too', () => {
    expect(pkg.desktopName).toMatch(/^[A-Za-z][\w-]*(\.[A-Za-z][\w-]*){2,}\.desktop$/);
    expect(pkg.desktopName).toBe(`${DESKTOP_ID}.desktop`);
    expect(config.linux?.syncDesktopName).toBe(true);
  });

  it('uses the installer’s appId as the Windows AppUserModelID', () => {
    expect(config.appId).toBe(APP_ID);
  });

  it('has the homepage a deb needs', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//);
  });

  it('asks for a Node.js that every dependency accepts', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const narrower: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const theirs = entry.engines?.node;
      if (!path || !theirs) continue;
      if (!semver.subset(pkg.engines.node, theirs)) narrower.push(`${path}: ${theirs}`);
    }
    expect(narrower).toEqual([]);
  });
});
