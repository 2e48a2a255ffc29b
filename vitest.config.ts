import { availableParallelism } from 'node:os';
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
    // Vitest's default is one file less than the cores: a single file at a time on two cores,
    // where most files wait on child processes, sockets and Chromium rather than the CPU. Two at
    // least (docs/testing.md); larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // electron-store imports `electron`; inlining lets tests mock it.
    server: { deps: { inline: ['electron-store'] } },
  },
});
