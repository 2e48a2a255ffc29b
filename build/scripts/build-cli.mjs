// Bundles the `trayshare` CLI as ESM; npm packages stay external so keytar's native module
// and conf resolve from node_modules as usual. Code-splitting keeps what only saved settings
// need (zod, conf, keytar, the queue) in chunks loaded on first use, so `send --base-url`
// starts quickly.
import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';

// Modules every command loads, taken with `require` rather than `import`. Node 22 builds an
// ES module's view of node:http by reading every export, and three of them (WebSocket,
// CloseEvent, MessageEvent) are getters that load undici: about 40 ms of CPU and 10 MB at every
// start. A CommonJS package imported from ESM is first scanned for its export names (commander:
// ~8 ms). `require` does neither. Measured in bench/notes.md.
const REQUIRED = /^(node:http|node:https|commander|proxy-from-env)$/;
const requireOnStartPath = {
  name: 'require-on-start-path',
  setup(b) {
    b.onResolve({ filter: REQUIRED }, (args) =>
      // The `require` inside the stand-in below is left to Node.
      args.namespace === 'required'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'required' },
    );
    b.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

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
  plugins: [requireOnStartPath],
  sourcemap: false,
  // `require` for the modules above (esbuild's ESM output has none of its own).
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
