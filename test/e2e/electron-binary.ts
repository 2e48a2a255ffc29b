// Whether the real-Electron tests can run here, and why not. `npm ci` does not bring Electron's
// binary (Electron 45 has no postinstall); `node build/scripts/setup.mjs test --electron`
// downloads it from GitHub, which GitHub's runners reach and this project's own machines do not
// (they reach the npm registry only): without the binary test/e2e is skipped with the reason
// printed. CI runs that set-up and sets TRAYSHARE_E2E=required, which turns a missing binary
// into a failure, so the workflow can never go green without having run them.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startProblemHere } from '../../build/scripts/electron-preflight.mjs';

export type ElectronBinary =
  | { path: string; skip?: undefined }
  | { path?: undefined; skip: string };

/**
 * The binary's path as `require('electron')` would give it, found without requiring it (the
 * package's index throws when the download did not happen).
 */
export function electronBinary(): ElectronBinary {
  const pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      skip: `the Electron binary is not installed (${pathFile} is missing: "node build/scripts/setup.mjs test --electron" downloads it from GitHub, which this machine may not reach). These tests run in CI (.github/workflows/ci.yml) on macOS, Windows and Linux.`,
    };
  }
  const path = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(path)) return { skip: `the Electron binary ${path} is missing` };
  const problem = startProblemHere(path);
  if (problem) return { skip: `Electron cannot start on this machine: ${problem}` };
  return { path };
}
