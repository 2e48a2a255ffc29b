import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Folders whose files start the built CLI or app as child processes and wait on sockets, a
// D-Bus or a keychain: a few of them take 10 to 30 s each, most other files well under one.
const SLOW_FOLDERS = [
  'test/cli/',
  'test/cli-package/',
  'test/external/',
  'test/boot/',
  'test/capture/',
  'test/packaging/',
];

/**
 * Vitest runs the files that took longest last time first, from its results cache; a fresh
 * clone (CI) has no cache, and Vitest then takes the largest files first, which can leave a
 * small but slow file to start last while the other worker sits idle. Without a cache, the
 * files of the slow folders go first (largest first within each group, as before).
 */
class SlowFoldersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (file: TestSpecification) => relative(root, file.moduleId).split('\\').join('/');
    const cached = sorted.every((file) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(root, file.moduleId)}`),
    );
    if (cached) return sorted;
    const slow = (file: TestSpecification) =>
      SLOW_FOLDERS.some((folder) => path(file).startsWith(folder));
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}

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
    // where most files wait on child processes, sockets and Chromium rather than the CPU. Three
    // at least: two left a quarter of two cores idle (docs/testing.md); larger machines keep
    // the default.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: SlowFoldersFirst },
    // electron-store imports `electron`; inlining lets tests mock it.
    server: { deps: { inline: ['electron-store'] } },
  },
});
