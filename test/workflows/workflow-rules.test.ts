// The project's workflow rules (build/scripts/workflow-rules.mjs), run on the workflows as they
// were before issue 34 (fixtures/*-before-34.yml, copies of that commit's files): each rule
// finds what would have failed on the first push, and passes the workflows as they are now.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type RunnerFacts, runnerFacts } from '../../build/scripts/lint-workflows.mjs';
import { labelsFromReadme } from '../../build/scripts/runner-labels.mjs';
import { electronSetupProblems, runsOnProblems } from '../../build/scripts/workflow-rules.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) =>
  readFile(join(root, 'test', 'workflows', 'fixtures', name), 'utf8');
const workflow = (name: string) => readFile(join(root, '.github', 'workflows', name), 'utf8');

describe('runner labels (build/runner-labels.json, from actions/runner-images)', () => {
  it('is taken from one commit of the runner-images README and marks macOS 14 deprecated', async () => {
    const facts: RunnerFacts = await runnerFacts();
    expect(facts.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(facts.source).toBe(
      `https://github.com/actions/runner-images/blob/${facts.commit}/README.md`,
    );
    // actions/runner-images#13518: macOS 14 deprecated, unsupported from 2026-11-02.
    expect(facts.labels['macos-14']).toMatchObject({ status: 'deprecated', arch: 'arm64' });
    for (const label of ['ubuntu-24.04', 'macos-15', 'windows-2022']) {
      expect(facts.labels[label]?.status, label).toBe('ga');
    }
  });

  it('reads labels, architectures and badges from the README table', () => {
    // The README's shape (badges as image links, labels in backticks joined by "or" and commas).
    const readme = [
      '## Available Images',
      '',
      '| Image | Architecture | YAML Label | Included Software |',
      '| --------------------|--------------|---------------------|------------------|',
      '| Ubuntu 26.04 ![preview](https://img.shields.io/badge/preview-0969DA)<br>![Endpoint Badge](x) | x64 | `ubuntu-26.04` | [ubuntu-26.04] |',
      '| macOS 15 Arm64<br>![Endpoint Badge](x) | arm64 | `macos-15`, or `macos-15-xlarge` | [m] |',
      '| macOS 14 Arm64 [![deprecated](https://img.shields.io/badge/deprecated-E5534B)](https://github.com/actions/runner-images/issues/13518)<br>![Endpoint Badge](x) | arm64 | `macos-14` or `macos-14-xlarge` | [m] |',
      '',
      '### Label scheme',
    ].join('\n');
    expect(labelsFromReadme(readme)).toEqual({
      'ubuntu-26.04': { image: 'Ubuntu 26.04', arch: 'x64', status: 'preview' },
      'macos-15': { image: 'macOS 15 Arm64', arch: 'arm64', status: 'ga' },
      'macos-15-xlarge': { image: 'macOS 15 Arm64', arch: 'arm64', status: 'ga' },
      'macos-14': { image: 'macOS 14 Arm64', arch: 'arm64', status: 'deprecated' },
      'macos-14-xlarge': { image: 'macOS 14 Arm64', arch: 'arm64', status: 'deprecated' },
    });
    expect(() => labelsFromReadme('# Runner images\n')).toThrow(/Available Images/);
  });
});

describe('runs-on: current GitHub-hosted labels only', () => {
  it('catches macos-14 in the CI and release workflows as they were', async () => {
    const facts = await runnerFacts();
    expect(runsOnProblems(await fixture('ci-before-34.yml'), 'ci.yml', facts)).toEqual([
      `ci.yml: job test runs on "macos-14", which is deprecated in ${facts.source}: pick a current label`,
    ]);
    expect(runsOnProblems(await fixture('release-before-34.yml'), 'release.yml', facts)).toEqual([
      `release.yml: job packages runs on "macos-14", which is deprecated in ${facts.source}: pick a current label`,
    ]);
  });

  it('passes the workflows as they are', async () => {
    const facts = await runnerFacts();
    for (const file of ['ci.yml', 'release.yml']) {
      expect(runsOnProblems(await workflow(file), file, facts), file).toEqual([]);
    }
  });

  it('refuses a label the runner images do not have, in a list or a matrix include', () => {
    const facts = {
      source: 'README',
      labels: { 'ubuntu-24.04': { status: 'ga' } },
    };
    const text = [
      'jobs:',
      '  a:',
      '    runs-on: [self-hosted, ubuntu-24.04]',
      '  b:',
      '    strategy:',
      '      matrix:',
      '        include:',
      '          - os: windows-2016',
      `    runs-on: ${'$'}{{ matrix.os }}`,
    ].join('\n');
    expect(runsOnProblems(text, 'x.yml', facts)).toEqual([
      'x.yml: job a runs on "self-hosted", which is not a GitHub-hosted runner label in README',
      'x.yml: job b runs on "windows-2016", which is not a GitHub-hosted runner label in README',
    ]);
  });
});

describe('the Electron binary is installed before the e2e tests need it', () => {
  it('catches the CI workflow as it was: npm ci only, so no binary after the set-up', async () => {
    expect(electronSetupProblems(await fixture('ci-before-34.yml'), 'ci.yml')).toEqual([
      'ci.yml: job test runs "Electron\'s sandbox helper (Linux)" with TRAYSHARE_E2E=required, but no step before it installs Electron\'s binary (`npm ci` does not: run `node build/scripts/setup.mjs test --electron`)',
    ]);
  });

  it('passes the workflow as it is', async () => {
    expect(electronSetupProblems(await workflow('ci.yml'), 'ci.yml')).toEqual([]);
  });
});
