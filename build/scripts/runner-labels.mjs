// The GitHub-hosted runner labels, read from the "Available Images" table of
// actions/runner-images' README, the list GitHub keeps of its runner images: each row has the
// image, its architecture, its YAML labels in backticks, and a "deprecated" (or "preview") badge
// while it is being retired (as macOS 14 was, actions/runner-images#13518). The facts file,
// build/runner-labels.json, is made from one commit of that README:
//   node build/scripts/runner-labels.mjs path/to/README.md <commit> > build/runner-labels.json
// and build/scripts/lint-workflows.mjs refuses a workflow whose `runs-on` is not in it or is
// deprecated there. Re-run it on a newer README when GitHub announces a change.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** `{ label: { image, arch, status } }` from the README's "Available Images" table. */
export function labelsFromReadme(markdown) {
  const section = /^## Available Images\s*$([\s\S]*?)^#{2,3} /m.exec(markdown)?.[1];
  if (!section) throw new Error('runner-labels: no "## Available Images" section in this README');
  const labels = {};
  for (const row of section.split(/\r?\n/).filter((line) => line.startsWith('|'))) {
    const cells = row.split('|').map((cell) => cell.trim());
    const [, image, arch, yamlLabels] = cells;
    if (!yamlLabels || !/`/.test(yamlLabels)) continue; // the header and its rule
    const badge = /\bdeprecated\b/i.test(image) ? 'deprecated' : /\bpreview\b/i.test(image);
    const status = badge === 'deprecated' ? 'deprecated' : badge ? 'preview' : 'ga';
    const name = image.split(/\s*(?:!\[|\[!\[|<br>)/)[0].trim();
    for (const [, label] of yamlLabels.matchAll(/`([^`]+)`/g)) {
      labels[label] = { image: name, arch, status };
    }
  }
  if (Object.keys(labels).length === 0) throw new Error('runner-labels: the table has no labels');
  return labels;
}

async function main() {
  const [readmePath, commit] = process.argv.slice(2);
  if (!readmePath || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
    process.stderr.write('usage: node build/scripts/runner-labels.mjs README.md <40-hex commit>\n');
    process.exit(2);
  }
  const labels = labelsFromReadme(await readFile(readmePath, 'utf8'));
  const facts = {
    source: `https://github.com/actions/runner-images/blob/${commit}/README.md`,
    commit,
    labels,
  };
  process.stdout.write(`${JSON.stringify(facts, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
