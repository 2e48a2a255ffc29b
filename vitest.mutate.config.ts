// The vitest configuration StrykerJS runs (stryker.config.mjs): the repo's own, with only the
// test files of the module being mutated (TRAYSHARE_MUTATE_TESTS, set by build/scripts/mutate.mjs).
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

const tests = (process.env.TRAYSHARE_MUTATE_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('TRAYSHARE_MUTATE_TESTS is empty: run `npm run mutate`');

export default defineConfig({ ...base, test: { ...base.test, include: tests } });
