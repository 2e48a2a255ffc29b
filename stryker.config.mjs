// StrykerJS for one promise module at a time: TRAYSHARE_MUTATE_MODULE names it (a key of
// build/scripts/mutation-modules.mjs); `npm run mutate` sets it for each module in turn.
// No type checker: @stryker-mutator/typescript-checker drives TypeScript's classic compiler API
// (ts.createSolutionBuilderWithWatch), which TypeScript 7 (this repo's compiler) no longer has,
// so mutants that would not compile are run and killed or survive like the others; the ones
// that survive only because the type checker would refuse them are noted in docs/mutation.md.
import { MUTATION_MODULES } from './build/scripts/mutation-modules.mjs';

const name = process.env.TRAYSHARE_MUTATE_MODULE ?? '';
const module = MUTATION_MODULES[name];
// Loaded without a module (knip reads this file to learn the plugins): mutate nothing.
if (name && !module) {
  throw new Error(
    `TRAYSHARE_MUTATE_MODULE must be one of: ${Object.keys(MUTATION_MODULES).join(', ')} (npm run mutate sets it)`,
  );
}

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The module's own tests only (vitest.mutate.config.ts reads the list), not `vitest related`,
  // which would pull in every end-to-end test that imports the module.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: module?.mutate ?? [],
  coverageAnalysis: 'perTest',
  // 2 cores shared with other work: one test runner by default (TRAYSHARE_MUTATE_CONCURRENCY).
  concurrency: Number(process.env.TRAYSHARE_MUTATE_CONCURRENCY ?? 1),
  // A mutant that makes a test hang (a queue that never settles) is given this much beyond the
  // test's normal time before it counts as detected (a timeout); each one costs a test-runner
  // restart, so the wait is kept short (TRAYSHARE_MUTATE_TIMEOUT_MS on a busier machine).
  timeoutMS: Number(process.env.TRAYSHARE_MUTATE_TIMEOUT_MS ?? 4000),
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  ignoreStatic: !module?.staticMutants,
  reporters: ['clear-text', 'json', 'html', 'progress'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  clearTextReporter: { allowColor: false, logTests: false },
  // Files a unit test never reads: keeps the sandbox copy small.
  ignorePatterns: ['out', 'dist', 'reports', 'bench/results', 'test-results', '*.log'],
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the tsconfig's extends/references for its sandbox through TypeScript's
  // classic API (ts.parseConfigFileTextToJson), absent from TypeScript 7. tsconfig.json has
  // neither extends nor references, so there is nothing to rewrite: point the option at no file.
  tsconfigFile: 'no-tsconfig-rewrite.json',
};
