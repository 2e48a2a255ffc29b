// Checks of .github/workflows that actionlint cannot make, run by lint-workflows.mjs in `npm test`:
// - every `runs-on` names a GitHub-hosted label from actions/runner-images' README
//   (build/runner-labels.json, runner-labels.mjs) that is not deprecated there;
// - a job that requires the real-Electron tests (TRAYSHARE_E2E: required) installs Electron's
//   binary before it needs it: `npm ci` does not (Electron 45 has no postinstall,
//   electron/electron#49328), so a set-up step must run `setup.mjs … --electron` first.
import { parse } from 'yaml';

const EXPRESSION = /^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$/;

/** The labels a job can run on: its `runs-on`, with a `matrix.X` expression expanded. */
function jobLabels(job) {
  const runsOn = Array.isArray(job['runs-on']) ? job['runs-on'] : [job['runs-on']];
  const labels = [];
  for (const value of runsOn) {
    const key = typeof value === 'string' ? EXPRESSION.exec(value)?.[1] : undefined;
    if (!key) {
      labels.push(String(value));
      continue;
    }
    const matrix = job.strategy?.matrix ?? {};
    const values = [
      ...(Array.isArray(matrix[key]) ? matrix[key] : []),
      ...(matrix.include ?? []).map((row) => row?.[key]).filter((v) => v !== undefined),
    ];
    if (values.length === 0) labels.push(String(value));
    else labels.push(...values.map(String));
  }
  return labels;
}

/**
 * Problems with the runner labels of one workflow's text, against the facts file.
 * @param {string} text  @param {string} file
 * @param {{ source: string, labels: Record<string, { status: string }> }} facts
 */
export function runsOnProblems(text, file, facts) {
  const problems = [];
  for (const [id, job] of Object.entries(parse(text)?.jobs ?? {})) {
    for (const label of new Set(jobLabels(job))) {
      const known = facts.labels[label];
      if (!known) {
        problems.push(
          `${file}: job ${id} runs on "${label}", which is not a GitHub-hosted runner label in ${facts.source}`,
        );
      } else if (known.status === 'deprecated') {
        problems.push(
          `${file}: job ${id} runs on "${label}", which is deprecated in ${facts.source}: pick a current label`,
        );
      }
    }
  }
  return problems;
}

const installsElectron = (step) =>
  typeof step.run === 'string' && /setup\.mjs\b[^\n]*\s--electron\b/.test(step.run);
const needsElectron = (step) =>
  typeof step.run === 'string' && /\bnpm test\b|chrome-sandbox/.test(step.run);

/** Jobs that require the real-Electron tests but reach them without installing Electron. */
export function electronSetupProblems(text, file) {
  const problems = [];
  for (const [id, job] of Object.entries(parse(text)?.jobs ?? {})) {
    if (job.env?.TRAYSHARE_E2E !== 'required') continue;
    const steps = job.steps ?? [];
    const first = steps.findIndex(needsElectron);
    const install = steps.findIndex(installsElectron);
    if (first === -1) continue;
    if (install === -1 || install > first) {
      const step = steps[first];
      problems.push(
        `${file}: job ${id} runs "${(step.name ?? step.run).trim()}" with TRAYSHARE_E2E=required, but no step before it installs Electron's binary (\`npm ci\` does not: run \`node build/scripts/setup.mjs test --electron\`)`,
      );
    }
  }
  return problems;
}
