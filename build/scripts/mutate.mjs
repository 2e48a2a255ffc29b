// `npm run mutate [module…]`: StrykerJS over the promise modules (mutation-modules.mjs), one
// module at a time with only its own tests, incremental (a second run re-tests only the mutants
// whose code or tests changed). Prints each module's mutation score and writes
// reports/mutation/summary.md; the HTML report of each module is beside it. Not part of npm test.
//   TRAYSHARE_MUTATE_CONCURRENCY=2 npm run mutate journal pkce
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MUTATION_MODULES } from './mutation-modules.mjs';

const require = createRequire(import.meta.url);
const strykerBin = join(
  require.resolve('@stryker-mutator/core/package.json'),
  '..',
  'bin',
  'stryker.js',
);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in MUTATION_MODULES));
if (unknown.length > 0) {
  console.error(
    `Unknown module ${unknown.join(', ')}: one of ${Object.keys(MUTATION_MODULES).join(', ')}`,
  );
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(MUTATION_MODULES);

/** Stryker's score: killed (and timed out) over all that ran or went uncovered. */
function score(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  const survivors = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      if (m.status in counts) counts[m.status]++;
      else counts.other++;
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        survivors.push(
          `${file}:${m.location.start.line} ${m.mutatorName} (${m.status}): ${m.replacement ?? ''}`,
        );
      }
    }
  }
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { ...counts, percent: valid === 0 ? 100 : (100 * detected) / valid, survivors };
}

mkdirSync('reports/mutation', { recursive: true });
const rows = [];
let failed = false;
for (const name of names) {
  const module = MUTATION_MODULES[name];
  const tests = module.tests.filter((t) => existsSync(t));
  console.log(`\n== ${name}: ${module.mutate.join(' ')} (tests: ${tests.join(' ')})`);
  // A static mutant is covered by no test in particular, so an incremental run would reuse a
  // survivor's result even after a new test kills it: a module that runs them runs in full.
  const force = module.staticMutants || process.env.TRAYSHARE_MUTATE_FORCE === '1';
  const args = [strykerBin, 'run', 'stryker.config.mjs', ...(force ? ['--force'] : [])];
  const run = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      TRAYSHARE_MUTATE_MODULE: name,
      TRAYSHARE_MUTATE_TESTS: tests.join(','),
    },
  });
  const reportPath = `reports/mutation/${name}.json`;
  if (run.status !== 0 || !existsSync(reportPath)) {
    console.error(`${name}: Stryker ended with ${run.status ?? run.signal}`);
    failed = true;
    rows.push(`| ${name} | failed to run | | | |`);
    continue;
  }
  const s = score(reportPath);
  rows.push(
    `| ${name} | ${s.percent.toFixed(1)}% | ${s.Killed + s.Timeout} | ${s.Survived} | ${s.NoCoverage} |`,
  );
  for (const line of s.survivors) console.log(`  left: ${line}`);
}
// The summary covers every module with a report, run now or before.
const all = Object.keys(MUTATION_MODULES)
  .filter((name) => existsSync(`reports/mutation/${name}.json`))
  .map((name) => {
    const s = score(`reports/mutation/${name}.json`);
    return `| ${name} | ${s.percent.toFixed(1)}% | ${s.Killed + s.Timeout} | ${s.Survived} | ${s.NoCoverage} |`;
  });
const table = [
  '| module | score | killed (and timed out) | survived | no coverage |',
  '|---|---|---|---|---|',
  ...all,
].join('\n');
writeFileSync('reports/mutation/summary.md', `${table}\n`);
console.log(`\n${rows.join('\n')}\n\nAll modules with a report:\n${table}`);
process.exit(failed ? 1 : 0);
