// A comment that names a source file sends the reader to it: when the file was renamed, merged or
// deleted, the reader searches for nothing. This check reads every comment in the code folders
// (with oxc-parser, so a string or a regular expression is never taken for a comment) and fails
// on each file name in one that leads nowhere, naming the file and line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSource } from './syntax-tree';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where comments are read: every folder of code, tests, benchmarks and build scripts. */
const CODE_FOLDERS = ['main', 'renderer', 'preload', 'test', 'bench', 'build'];
const CODE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** Never part of the repository's sources: installed packages, build output, tool scratch. */
const NOT_SOURCES = new Set(['node_modules', 'out', 'dist', '.git', 'reports', '.stryker-tmp']);

/**
 * A file name as comments write one: a name, or a path (relative ones too), ending in .ts, .tsx,
 * .mts, .cts, .mjs or .cjs. It must not sit inside a longer word, path or URL (a glob such as
 * `*.test.ts`, a web address, a template), and .js is left out: comments say "Node.js" far more
 * often than they name a JavaScript file here.
 */
const FILE_NAME =
  /(?<![\w.*/$@{}-])((?:\.\.?\/)*(?:[\w.-]+\/)*\w[\w.-]*\.(?:ts|tsx|mts|cts|mjs|cjs))(?![\w/-])/g;

/**
 * Projects whose own files comments cite as the source of a fact (a file of theirs is not in
 * this repository). A name counts as theirs when its line, or the line before, names the project.
 */
const CITED_PROJECTS = [
  'node-slack-sdk',
  'python-slack-sdk',
  'slack-api-ref',
  'Playwright',
  'electron-builder',
  'electron-log',
];

/** Files to read in place of the ones on disk, or beside them: how the test plants a fault. */
type Planted = Readonly<Record<string, string>>;

function filesUnder(dir: string, prefix: string, into: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (NOT_SOURCES.has(entry.name)) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) filesUnder(join(dir, entry.name), path, into);
    else into.push(path);
  }
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const packages = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });

/** Whether an installed package holds the name (Electron's type file, electron-log's). */
const inPackages = (ref: string): boolean =>
  packages.some((name) => existsSync(join(root, 'node_modules', name, ref)));

/** The repository's files (with planted ones), and whether a name written in `from` is one. */
function repository(planted: Planted) {
  const files: string[] = [];
  filesUnder(root, '', files);
  const all = [...new Set([...files, ...Object.keys(planted)])];
  const names = new Set(all.map((f) => basename(f)));
  const paths = new Set(all);
  const exists = (ref: string, from: string): boolean => {
    if (ref.startsWith('./') || ref.startsWith('../')) {
      if (paths.has(posix.normalize(posix.join(dirname(from), ref)))) return true;
    }
    const bare = ref.replace(/^(\.\.?\/)+/, '');
    if (!bare.includes('/')) return names.has(bare);
    // A path written from any folder (`upload/engine.ts` in main/core): its end must match.
    return all.some((f) => f === bare || f.endsWith(`/${bare}`));
  };
  // What a build makes from a source here: the bundles of out/, a bench client's .mjs.
  const builtFromSource = (ref: string): boolean =>
    ref.startsWith('out/') ||
    (/\.(mjs|cjs)$/.test(ref) && names.has(basename(ref).replace(/\.[cm]js$/, '.ts')));
  return { all, exists, builtFromSource };
}

/**
 * Every comment's file name that leads nowhere, as `file:line: name`: in every source file, or
 * in `only` those (a planted fault is looked for in its own files, not in the whole tree again).
 */
function staleReferences(planted: Planted = {}, only?: readonly string[]): string[] {
  const { all, exists, builtFromSource } = repository(planted);
  const problems: string[] = [];
  const sources = (only ?? all).filter(
    (f) => CODE_FOLDERS.includes(f.split('/')[0] ?? '') && CODE_FILE.test(f),
  );
  for (const file of sources.sort()) {
    const text = planted[file] ?? readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n');
    const { parsed } = parseSource(file, text);
    for (const comment of parsed.comments) {
      const bodyStart = comment.start + 2;
      for (const match of comment.value.matchAll(FILE_NAME)) {
        const ref = match[1] ?? '';
        if (exists(ref, file) || builtFromSource(ref)) continue;
        const line = text.slice(0, bodyStart + (match.index ?? 0)).split('\n').length;
        const near = `${lines[line - 2] ?? ''}\n${lines[line - 1] ?? ''}`;
        if (CITED_PROJECTS.some((project) => near.includes(project)) || inPackages(ref)) continue;
        problems.push(`${file}:${line}: ${ref}`);
      }
    }
  }
  return problems;
}

/**
 * The map's file names that lead nowhere, and anything it names outside the repository, as
 * `ARCHITECTURE.md:line: name`: the map is read to find files, so each one it names must exist.
 */
function staleInMap(planted: Planted = {}): string[] {
  const { exists, builtFromSource } = repository(planted);
  const file = 'ARCHITECTURE.md';
  const text = planted[file] ?? readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const match of line.matchAll(FILE_NAME)) {
      const ref = match[1] ?? '';
      if (!exists(ref, file) && !builtFromSource(ref)) problems.push(`${file}:${i + 1}: ${ref}`);
    }
    for (const outside of line.matchAll(/(?<![\w.])\.\.\/[\w./-]+/g)) {
      problems.push(`${file}:${i + 1}: ${outside[0]} is outside the repository`);
    }
  });
  return problems;
}

describe('comments that name a source file', () => {
  it('name files that exist (a renamed or merged file leaves no comment pointing at it)', () => {
    expect(staleReferences()).toEqual([]);
  });

  it('are found when they name a file that is gone, with the file and line', () => {
    const file = 'main/core/queue/history-hand-off.ts';
    const text = readFileSync(join(root, file), 'utf8');
    const planted = {
      [file]: `${text}\n// The marks are cleared in history-marks.ts.\n`,
      'main/cli/planted.ts': [
        "const transport = 'node-http.ts'; // a string, not a comment: never read",
        '/**',
        ' * Built on core/upload/node-http.ts, and on ./send-early.ts beside this file.',
        ' */',
        'export const planted = transport;',
        '',
      ].join('\n'),
    };
    const lastLine = `${text}\n`.split('\n').length;
    expect(staleReferences(planted, Object.keys(planted))).toEqual([
      'main/cli/planted.ts:3: core/upload/node-http.ts',
      `${file}:${lastLine}: history-marks.ts`,
    ]);
  });

  it('may cite another project’s file when the line names the project', () => {
    const planted = {
      'main/cli/planted.ts': [
        '// As node-slack-sdk does it (packages/web-api/src/file-upload.ts).',
        '// As the SDK does it:',
        '// packages/web-api/src/WebClient.ts.',
        'export const planted = 1;',
        '',
      ].join('\n'),
    };
    expect(staleReferences(planted, Object.keys(planted))).toEqual([
      'main/cli/planted.ts:3: packages/web-api/src/WebClient.ts',
    ]);
  });
});

describe('ARCHITECTURE.md, the map', () => {
  it('names only files that exist, all inside the repository', () => {
    expect(staleInMap()).toEqual([]);
  });

  it('is caught naming a merged-away file or one outside the repository', () => {
    const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const lines = text.split('\n').length;
    const planted = {
      'ARCHITECTURE.md': `${text}\nThe transport is \`upload/node-http.ts\`; see \`../shared/design/architecture.md\`.\n`,
    };
    expect(staleInMap(planted)).toEqual([
      `ARCHITECTURE.md:${lines + 1}: upload/node-http.ts`,
      `ARCHITECTURE.md:${lines + 1}: ../shared/design/architecture.md is outside the repository`,
    ]);
  });
});
