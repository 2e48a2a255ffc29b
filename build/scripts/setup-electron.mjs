// The Electron binary for the end-to-end tests, installed by the set-up CI runs
// (`node build/scripts/setup.mjs test --electron`, which calls this after `npm ci`). Electron 45's
// package has no postinstall, so `npm ci` leaves neither the binary nor path.txt
// (electron/electron#49328); its own installer (install.js, the `install-electron` bin) is run
// here, with ELECTRON_MIRROR, electron_config_cache and the proxy variables it reads from the
// environment. A failed download exits 1 naming the address and the error, so CI fails at the
// set-up instead of reaching a test run without Electron.
// Run on its own: `node build/scripts/setup-electron.mjs [project folder]` (this checkout by
// default), which is how test/workflows/electron-install.test.ts runs it against a local mirror.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { electronPackageDir, ensureElectronBinary } from './electron-binary.mjs';

/** Installs Electron's binary for the project at `projectDir`; returns the exit code. */
export async function setUpElectron(projectDir, say) {
  const result = await ensureElectronBinary({
    packageDir: electronPackageDir(projectDir),
    retry: 'node build/scripts/setup.mjs test --electron',
    say,
  });
  if (result.problem) {
    say(result.problem);
    return 1;
  }
  say(`Electron binary in place: ${result.path}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const projectDir = process.argv[2] ? resolve(process.argv[2]) : undefined;
  const say = (message) => process.stderr.write(`setup: ${message}\n`);
  process.exit(await setUpElectron(projectDir, say));
}
