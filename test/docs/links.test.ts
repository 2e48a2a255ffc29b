// README.md stays a newcomer's page and every link in it and in docs/ leads somewhere: the
// checks run on the repository itself, and with planted faults to show that each one bites.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexer } from 'marked';
import { describe, expect, it } from 'vitest';
import { docPages, docProblems, README_MAX_LINES } from './doc-links';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The commands of the first code block under README's "Run it" or "Test it" heading. */
function readmeCommands(section: string): string[] {
  const tokens = lexer(readFileSync(join(root, 'README.md'), 'utf8'));
  const at = tokens.findIndex((t) => t.type === 'heading' && t.text === section);
  const code = tokens.slice(at + 1).find((t) => t.type === 'code' || t.type === 'heading');
  if (at < 0 || code?.type !== 'code') throw new Error(`README has no code block under ${section}`);
  return (code.text as string)
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

describe('README.md and docs/', () => {
  it('README is short, every relative link and anchor resolves, every docs page is reachable', () => {
    expect(docPages(root)).toContain('docs/cli.md');
    expect(docProblems(root)).toEqual([]);
  });

  it("CI runs README's test command, and README's run command starts the app", () => {
    const ciLines = readFileSync(join(root, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(readmeCommands('Test it')).toEqual([ciLines.at(-1)]);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(readmeCommands('Run it')).toEqual(['npm start', 'npm run demo']);
    expect(pkg.scripts.start).toContain('launch-electron.mjs');
    expect(pkg.scripts.demo).toContain('launch-demo.ts');
  });
});

describe('the checks catch what a reader would meet', () => {
  /** The repository's own pages with `text` added at the end of some, or new pages beside them. */
  const plant = (added: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(added).map(([file, text]) => {
        const path = join(root, file);
        return [file, existsSync(path) ? readFileSync(path, 'utf8') + text : text];
      }),
    );

  it('a link to a missing file, in README or in docs/', () => {
    const planted = plant({
      'README.md': '\nSee [the guide](docs/guide.md).\n',
      'docs/cli.md': '\n![A picture](images/missing.png)\n',
    });
    expect(docProblems(root, planted)).toEqual([
      'README.md: docs/guide.md names a file that does not exist',
      'docs/cli.md: images/missing.png names a file that does not exist',
    ]);
  });

  it('an anchor that names no heading, and a link out of the repository', () => {
    const planted = plant({
      'README.md': '\n[Exit codes](docs/cli.md#exit-codez)\n',
      'docs/security.md': '\n[Spec](../../shared/spec/service-contract.md)\n',
    });
    expect(docProblems(root, planted)).toEqual([
      'README.md: docs/cli.md#exit-codez names no heading in docs/cli.md',
      'docs/security.md: ../../shared/spec/service-contract.md points outside the repository',
    ]);
  });

  it('a link out of the repository, or to a missing heading, in ARCHITECTURE.md', () => {
    const planted = plant({
      'ARCHITECTURE.md': '\n[The design](../shared/design/architecture.md), [layers](#layerz).\n',
    });
    expect(docProblems(root, planted)).toEqual([
      'ARCHITECTURE.md: ../shared/design/architecture.md points outside the repository',
      'ARCHITECTURE.md: #layerz names no heading in ARCHITECTURE.md',
    ]);
  });

  it('a docs page no link reaches, and a README over the limit', () => {
    const planted = plant({
      'docs/orphan.md': '# Orphan\n',
      'README.md': 'one more line\n'.repeat(README_MAX_LINES),
    });
    expect(docProblems(root, planted)).toEqual([
      expect.stringMatching(/^README\.md has \d+ lines, more than 200$/),
      'docs/orphan.md is not reachable by links from README.md',
    ]);
  });

  it('a page reached through another docs page counts, and a link inside a code block does not', () => {
    const planted = plant({
      'docs/cli.md': '\n[More](deeper.md#deeper-still)\n\n```md\n[not a link](nowhere.md)\n```\n',
      'docs/deeper.md': '# Deeper still\n',
    });
    expect(docProblems(root, planted)).toEqual([]);
  });
});
