import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// The renderer tests in real Chromium (docs/testing.md): one browser for the whole run, shared
// by the test files, each with its own harness, one file at a time. Two at a time on two cores
// saved about 20 s of eight minutes once the browser was shared, and let a throttled upload's
// speed miss views.test's 10 s wait in about half the runs; one at a time it had not.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/renderer/**/*.test.ts'],
    globalSetup: ['test/renderer/global-setup.ts'],
    fileParallelism: false,
    // The files share one worker's loaded modules (the core, the harness, Playwright) instead of
    // each loading them again: on two cores that loading took longer than many files' tests.
    // Nothing is shared between files but code: each starts its own harness (its own core,
    // reference service, folders and port) and its own browser contexts, and no renderer test
    // mocks a module or changes the environment, which a shared worker would carry over.
    isolate: false,
  },
});
