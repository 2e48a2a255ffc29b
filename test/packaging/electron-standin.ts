// A local stand-in for the Electron distribution, so electron-builder can pack the app
// without downloading Electron. electron-builder copies the folder and renames `electron` to
// the app's executable; nothing else in it is required for `--linux dir`.
//
// Electron's binary carries a "fuse wire": a sentinel, the wire version, its length, then
// one byte per fuse ('0' off, '1' on). The stand-in carries one too, with Electron's own
// defaults, so electron-builder's real @electron/fuses step runs and flips it, and the test
// reads back what a packaged Electron would get. It cannot show that Electron honours them.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** @electron/fuses' SENTINEL. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron's shipped fuse states, in wire order: RunAsNode on, cookie encryption off,
 * NODE_OPTIONS on, --inspect on, asar integrity off, only-from-asar off, browser V8
 * snapshot off, extra file:// privileges on.
 */
const ELECTRON_DEFAULT_FUSES = '10110001';

export async function makeElectronStandin(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const script = Buffer.from(
    '#!/bin/sh\n# Stand-in for the Electron binary: packing only.\nexit 0\n# ',
  );
  const wire = Buffer.concat([
    Buffer.from(FUSE_SENTINEL, 'latin1'),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES, 'latin1'),
    Buffer.from('\n'),
  ]);
  const electron = join(dir, 'electron');
  await writeFile(electron, Buffer.concat([script, wire]));
  await chmod(electron, 0o755);
  return dir;
}
