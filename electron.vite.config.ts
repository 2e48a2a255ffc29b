import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// A release's default Slack client ID (public, not a secret; build/RELEASE.md), empty when
// not given: main/portable/build-defaults.ts reads it.
const buildDefaults = {
  __TRAYSHARE_SLACK_CLIENT_ID__: JSON.stringify(process.env.TRAYSHARE_SLACK_CLIENT_ID ?? ''),
};

// main → out/main/index.js (ESM), preload → out/preload/index.cjs (CommonJS: a sandboxed
// preload cannot load ES modules), renderer → out/renderer/ (static page, strict CSP).
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
      lib: { entry: resolve('preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    define: buildDefaults,
    root: resolve('renderer'),
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
