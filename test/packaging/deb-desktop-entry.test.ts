// The deb's desktop entry as electron-builder writes it (its own LinuxTargetHelper, from
// electron-builder.yml), started by GLib's `gio launch` as a file manager or a browser would.
// The entry is both the Open With handler for files and, through `protocols`, the handler of
// trayshare:// links (electron-builder puts x-scheme-handler/<scheme> in MimeType for Linux).
// A link reaches the program only through a URL field code: the Desktop Entry spec's %F is a
// list of local files, %U a list of URLs where local files may come as paths (GLib passes them
// as paths, checked below) or file: URLs (main/electron/share-argv.ts reads both).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Configuration } from 'app-builder-lib';
import { LinuxTargetHelper } from 'app-builder-lib/out/targets/LinuxTargetHelper';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The deb's entry, computed by electron-builder's own code from this repository's config. */
async function debDesktopEntry(config: Configuration): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // The parts of electron-builder's LinuxPackager that computeDesktopEntry reads.
  const packager = {
    appInfo: {
      productName: pkg.productName,
      sanitizedProductName: pkg.productName,
      description: pkg.description,
    },
    executableName: config.linux?.executableName,
    info: { metadata: pkg },
    fileAssociations: [],
    config,
    platformSpecificBuildOptions: config.linux ?? {},
  };
  const helper = new LinuxTargetHelper(packager as unknown as LinuxTargetHelper['packager']);
  return helper.computeDesktopEntry(config.deb ?? {});
}

let config: Configuration;
let entry: string;
let dir: string;
let log: string;

beforeAll(async () => {
  config = await getConfig(root, null, null);
  entry = await debDesktopEntry(config);
  dir = await mkdtemp(join(tmpdir(), 'trayshare-deb-entry-'));
  log = join(dir, 'argv.log');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(log, { force: true });
});

describe("the deb's desktop entry", () => {
  it('takes files and trayshare: links, with a URL field code', () => {
    const keys = Object.fromEntries(
      entry
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(keys.MimeType?.split(';')).toEqual(
      expect.arrayContaining(['application/octet-stream', 'x-scheme-handler/trayshare']),
    );
    expect(keys.Exec).toBe('/opt/Trayshare/trayshare --share %U');
  });

  // gio exists on Linux only; the entry is for Linux desktops.
  it.runIf(process.platform === 'linux')(
    'hands GLib a set-up link and local files alike',
    async () => {
      // The installed program, replaced by a script that records its arguments.
      const program = join(dir, 'trayshare');
      await writeFile(
        program,
        `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}.tmp' && mv '${log}.tmp' '${log}'\n`,
      );
      await chmod(program, 0o755);
      const file = join(dir, 'entry.desktop');
      await writeFile(file, entry.replace('Exec=/opt/Trayshare/trayshare', `Exec=${program}`));
      const received = async () => {
        await expect
          .poll(
            () =>
              stat(log).then(
                () => true,
                () => false,
              ),
            { timeout: 5000 },
          )
          .toBe(true);
        return (await readFile(log, 'utf8')).split('\n').slice(0, -1);
      };

      const link = 'trayshare://setup?base_url=https%3A%2F%2Fslack.example&name=Team';
      await run('gio', ['launch', file, link]);
      expect(await received()).toEqual(['--share', link]);

      await rm(log);
      const shared = join(dir, 'report final.pdf');
      await writeFile(shared, 'x');
      await run('gio', ['launch', file, shared]);
      expect(await received()).toEqual(['--share', shared]);
    },
  );
});
