// Bundles the `trayshare` CLI as ESM; npm packages stay external so keytar's native module
// and conf resolve from node_modules as usual. Code-splitting keeps what only saved settings
// need (zod, conf, keytar, the queue) in chunks loaded on first use, so `send --base-url`
// starts quickly.
import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';

const outfile = 'out/cli/trayshare.js';
await build({
  entryPoints: ['main/cli/trayshare.ts'],
  outdir: 'out/cli',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  banner: { js: '#!/usr/bin/env node' },
  // A release's default Slack client ID (public, not a secret); empty when not given.
  define: {
    __TRAYSHARE_SLACK_CLIENT_ID__: JSON.stringify(process.env.TRAYSHARE_SLACK_CLIENT_ID ?? ''),
  },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
