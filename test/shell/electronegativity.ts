// Runs Electronegativity over the Electron-facing sources (main/electron, preload, renderer;
// tests left out) and fails on any finding, any file it could not parse, and any check that
// is switched off (an `eng-disable` comment or an excluded check) without an explanation in
// main/electron/SECURITY.md. The tool's own CLI always exits 0, hence this wrapper.
//
// Offline: the tool fetches translations and Electron's release list over the network. Its
// HTTP client is replaced before it loads, and the release check is excluded (see SECURITY.md).
//
// Usage: tsx test/shell/electronegativity.ts   (exit code 1 on an unexplained finding)
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SOURCES = ['main/electron', 'preload', 'renderer'];
export const SECURITY_DOC = 'main/electron/SECURITY.md';

/** Checks left out of the scan: each must be explained in SECURITY.md. */
export const EXCLUDED_CHECKS = [
  'AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK',
  'ELECTRON_VERSION_JSON_CHECK',
];

export interface Finding {
  id: string;
  file: string;
  line: number;
  sample: string;
  description: string;
}

export interface ScanResult {
  findings: Finding[];
  parseErrors: { file: string; message: string }[];
  /** Checks disabled or excluded without an explanation in SECURITY.md. */
  unexplained: { check: string; where: string }[];
  scannedFiles: string[];
}

const isTest = (name: string) => /\.test\.tsx?$/.test(name) || name === 'test';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function stage(root: string, into: string): Promise<string[]> {
  const copied: string[] = [];
  for (const source of SOURCES) {
    if (!(await exists(join(root, source)))) continue;
    await cp(join(root, source), join(into, source), {
      recursive: true,
      filter: (src) => !isTest(src.split(/[\\/]/).pop() ?? '') && !src.includes('node_modules'),
    });
  }
  await cp(join(root, 'package.json'), join(into, 'package.json'));
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else copied.push(relative(into, path));
    }
  };
  await walk(into);
  return copied.sort();
}

function preload(path: string, exports: unknown): void {
  const mod = new Module(path);
  mod.filename = path;
  mod.loaded = true;
  mod.exports = exports;
  createRequire(import.meta.url).cache[path] = mod;
}

/**
 * Prepares the tool's dependencies: no network (its HTTP client refuses), and the TypeScript
 * its parser was written for. typescript-estree would otherwise load the project's
 * TypeScript 7, whose JavaScript API it cannot use; the tool ships TypeScript 4 beside itself.
 */
function prepareTool(): void {
  const require = createRequire(import.meta.url);
  const tool = require.resolve('@doyensec/electronegativity/dist/runner.js');
  const toolRequire = createRequire(tool);
  const refuse = () =>
    Promise.reject(new Error('offline: Electronegativity may not use the network'));
  preload(
    createRequire(toolRequire.resolve('./locales/i18n.js')).resolve('got'),
    Object.assign(refuse, { head: refuse, get: refuse }),
  );
  const estree = toolRequire.resolve('@typescript-eslint/typescript-estree');
  const projectTs = createRequire(estree).resolve('typescript');
  preload(projectTs, toolRequire('typescript'));
}

/**
 * Findings in files the shell does not own (and so cannot annotate), reviewed in the
 * SECURITY.md table: rows of the form | `CHECK_ID` | `path` | why |.
 */
function reviewedFindings(doc: string): Set<string> {
  const rows = new Set<string>();
  for (const line of doc.split('\n')) {
    const m = /^\|\s*`([A-Z0-9_]+)`\s*\|\s*`([^`]+)`\s*\|\s*\S/.exec(line);
    if (m) rows.add(`${m[1]} ${m[2]}`);
  }
  return rows;
}

async function disabledInSources(
  dir: string,
  files: string[],
): Promise<{ check: string; where: string }[]> {
  const found: { check: string; where: string }[] = [];
  for (const file of files.filter((f) => /\.(tsx?|jsx?|html?)$/.test(f))) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => '');
    for (const [index, line] of text.split('\n').entries()) {
      const m = /eng-disable\s+([A-Z0-9_ ]+)/.exec(line);
      if (!m) continue;
      for (const check of m[1]!.trim().split(/\s+/))
        found.push({ check, where: `${file}:${index + 1}` });
    }
  }
  return found;
}

/** Scans the project at `root` (default: this repository). */
export async function scan(root = projectRoot): Promise<ScanResult> {
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-eng-'));
  try {
    const files = await stage(root, dir);
    prepareTool();
    const require = createRequire(import.meta.url);
    const run = require('@doyensec/electronegativity') as (opts: object) => Promise<{
      errors: { file: string; message: string; tolerable?: boolean }[];
      issues: {
        id: string;
        file: string;
        location: { line: number };
        sample: string;
        description: string;
      }[];
    }>;
    // The tool prints a notice when its translation download fails; keep the output readable.
    const log = console.log;
    console.log = () => undefined;
    let result: Awaited<ReturnType<typeof run>>;
    try {
      result = await run({
        input: dir,
        isRelative: true,
        excludeFromScan: EXCLUDED_CHECKS.map((c) => c.replace(/_/g, '').toLowerCase()),
        parserPlugins: [],
      });
    } finally {
      console.log = log;
    }
    const doc = await readFile(join(root, SECURITY_DOC), 'utf8').catch(() => '');
    const explained = (check: string) => doc.includes(`\`${check}\``);
    const reviewed = reviewedFindings(doc);
    const disabled = [
      ...(await disabledInSources(dir, files)),
      ...EXCLUDED_CHECKS.map((check) => ({ check, where: 'test/shell/electronegativity.ts' })),
    ];
    return {
      findings: result.issues
        .filter((i) => !reviewed.has(`${i.id} ${i.file}`))
        .map((i) => ({
          id: i.id,
          file: i.file,
          line: i.location.line,
          sample: i.sample ?? '',
          description: i.description,
        })),
      parseErrors: result.errors
        .filter((e) => !e.tolerable)
        .map((e) => ({ file: relative(dir, e.file), message: e.message })),
      unexplained: disabled.filter((d) => !explained(d.check)),
      scannedFiles: files,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function report(result: ScanResult): string[] {
  return [
    ...result.findings.map(
      (f) =>
        `${f.id} at ${f.file}:${f.line}: ${f.description} (${(f.sample ?? '').trim().slice(0, 80)})`,
    ),
    ...result.parseErrors.map((e) => `could not parse ${e.file}: ${e.message}`),
    ...result.unexplained.map(
      (u) => `${u.check} is switched off at ${u.where} but not explained in ${SECURITY_DOC}`,
    ),
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await scan();
  const problems = report(result);
  if (problems.length > 0) {
    for (const line of problems) console.error(line);
    process.exit(1);
  }
  console.log(`Electronegativity: no unexplained finding in ${result.scannedFiles.length} files.`);
}
