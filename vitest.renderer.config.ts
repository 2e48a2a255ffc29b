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
  },
});
