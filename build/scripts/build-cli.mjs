// Bundles the `trayshare` CLI as ESM. npm packages stay external so keytar's native module and
// conf resolve from node_modules as usual, except what every command loads: commander, and
// electron-log's file transport (the log every command opens). Bundled, Node neither resolves
// their packages nor builds an ES module view of their CommonJS at each start (~10 ms for
// commander with the compile cache on, ~15 ms for electron-log's five files; bench/notes.md,
// issue 25). The standalone package (pack-cli.mjs) bundles both too. Code-splitting keeps what only
// saved settings need (zod, conf, keytar, the queue) in chunks loaded on first use, so
// `send --base-url` starts quickly. out/cli is emptied first: chunk names carry a hash, and old
// chunks would pile up beside the new ones.
import { chmod, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile('package.json', 'utf8'));
const BUNDLED = new Set(['commander', 'electron-log']);
// Every other package, with its subpaths (`conf/…`), resolves from node_modules at run time.
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

const outdir = 'out/cli';
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: ['main/cli/trayshare.ts'],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: false,
  // Bundled CommonJS (commander) calls require() for Node's modules: give the ESM output one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __trayshareRequire } from 'node:module';\nconst require = __trayshareRequire(import.meta.url);",
  },
  // A release's default Slack client ID (public, not a secret); empty when not given.
  define: {
    __TRAYSHARE_SLACK_CLIENT_ID__: JSON.stringify(process.env.TRAYSHARE_SLACK_CLIENT_ID ?? ''),
  },
  logLevel: 'warning',
});
await chmod(`${outdir}/trayshare.js`, 0o755);
