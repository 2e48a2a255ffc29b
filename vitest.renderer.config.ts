import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// The renderer tests in real Chromium (docs/testing.md): one browser for the whole run, shared
// by the test files, each with its own harness.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/renderer/**/*.test.ts'],
    globalSetup: ['test/renderer/global-setup.ts'],
  },
});
