import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'main/**/*.test.ts',
      'preload/**/*.test.ts',
      'renderer/**/*.test.ts',
      'test/**/*.test.ts',
      'build/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // electron-store imports `electron`; inlining lets tests mock it.
    server: { deps: { inline: ['electron-store'] } },
  },
});
