// Bundles the `trayshare` CLI to one ESM file; npm packages stay external so keytar's
// native module and electron-store resolve from node_modules as usual.
import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';

const outfile = 'out/cli/trayshare.js';
await build({
  entryPoints: ['main/cli/trayshare.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
