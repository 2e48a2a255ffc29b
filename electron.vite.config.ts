import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// A release's default Slack client ID (public, not a secret; build/RELEASE.md), empty when
// not given: main/portable/build-defaults.ts reads it.
const buildDefaults = {
  __TRAYSHARE_SLACK_CLIENT_ID__: JSON.stringify(process.env.TRAYSHARE_SLACK_CLIENT_ID ?? ''),
};

// main → out/main/index.js (ESM), preload → out/preload/index.cjs and overlay.cjs (CommonJS: a
// sandboxed preload cannot load ES modules, nor a shared chunk), renderer → out/renderer/ (the
// app's page and Windows' capture overlay, static pages with a strict CSP).
export default defineConfig({
  main: {
    define: buildDefaults,
    build: {
      outDir: 'out/main',
      lib: { entry: resolve('main/electron/index.ts'), formats: ['es'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Bundle zod and the contract in: a sandboxed preload can only require electron.
      externalizeDeps: false,
      lib: {
        entry: { index: resolve('preload/index.ts'), overlay: resolve('preload/overlay.ts') },
        formats: ['cjs'],
        fileName: (_format, name) => `${name}.cjs`,
      },
    },
  },
  renderer: {
    define: buildDefaults,
    root: resolve('renderer'),
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      rollupOptions: {
        input: { index: resolve('renderer/index.html'), overlay: resolve('renderer/overlay.html') },
      },
    },
  },
});
