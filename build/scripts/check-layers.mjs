// `npm run layers` (in `npm test`): no import cycle anywhere in the repo's own code, and no
// import in main/core that points up its layers (ARCHITECTURE.md, "Layers").
//   node build/scripts/check-layers.mjs [root]
// Why not dependency-cruiser: its 18.x reads TypeScript only through the `typescript` package's
// compiler API (supported range >=2 <7), and this repo's TypeScript 7 package has none; its
// other routes (babel, swc) need a transpiler we do not have and drop type-only imports, which
// make cycles too (auth-methods.ts once imported types from app-service.ts). So the imports are
// read with oxc-parser (a dev dependency already, the parser knip runs), type-only ones
// included, and resolved the way the bundler does (extensionless paths, index files).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';

/** The folders whose code is checked for cycles. */
const ROOTS = ['main', 'preload', 'renderer', 'bench', 'test', 'build/scripts'];
const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', 'out', 'dist', 'results', 'fixtures']);

/**
 * main/core's layers, top first. A file belongs to the first entry whose prefix its path
 * (relative to main/core) starts with; an import may go to its own layer or any below it.
 */
export const LAYERS = [
  { name: 'beside the service', paths: ['log/'] },
  { name: 'composition root', paths: ['app-service.ts', 'service/'] },
  { name: "the share's rooms", paths: ['share/', 'delivery/', 'auth/'] },
  { name: 'queue, names, history', paths: ['queue/', 'conversations/', 'history/'] },
  { name: 'settings, secrets', paths: ['settings/', 'secrets/'] },
  { name: 'protocols', paths: ['upload/'] },
  { name: 'plain model', paths: [''] },
];

/** Every source file under `root`'s checked folders, as repo-relative paths with `/`. */
function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.mts')) files.push(path);
    }
  };
  for (const folder of ROOTS) if (existsSync(join(root, folder))) walk(join(root, folder));
  return files.map((f) => relative(root, f).split(sep).join('/'));
}

const CANDIDATES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** The repo file a relative specifier names, or undefined for a package or a missing file. */
function resolveImport(root, from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  const bases = [base, base.replace(/\.(?:js|mjs)$/, '')];
  for (const b of bases) {
    for (const ext of CANDIDATES) {
      const path = b + ext;
      if (existsSync(path) && statSync(path).isFile()) {
        return relative(root, path).split(sep).join('/');
      }
    }
  }
  return undefined;
}

/** The imports of one file: static, re-exports and literal dynamic ones, types included. */
function importsOf(root, file) {
  const source = readFileSync(join(root, file), 'utf8');
  const { module } = parseSync(file, source);
  const specifiers = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value)),
    ...module.dynamicImports.map((d) => {
      const text = source.slice(d.moduleRequest.start, d.moduleRequest.end);
      return /^(['"])[^'"]*\1$/.test(text) ? text.slice(1, -1) : undefined;
    }),
  ];
  const targets = new Set();
  for (const specifier of specifiers) {
    const target = specifier && resolveImport(root, file, specifier);
    if (target && target !== file) targets.add(target);
  }
  return [...targets];
}

/** The repo's import graph: file -> the files it imports. */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) graph.set(file, importsOf(root, file));
  return graph;
}

/** Each cycle once, as the files in order (Tarjan's strongly connected components). */
export function findCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) components.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components;
}

/** The layer (index into LAYERS, 0 the top) of a file under main/core, else undefined. */
export function layerOf(file) {
  if (!file.startsWith('main/core/')) return undefined;
  const inCore = file.slice('main/core/'.length);
  return LAYERS.findIndex((layer) => layer.paths.some((p) => inCore.startsWith(p)));
}

/** main/core imports that point to a layer above their own (tests are not a layer). */
export function findUpwardImports(graph) {
  const upward = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (from === undefined || /\.test\.tsx?$/.test(file)) continue;
    for (const to of targets) {
      const layer = layerOf(to);
      if (layer !== undefined && layer < from) {
        upward.push({ from: file, to, fromLayer: LAYERS[from].name, toLayer: LAYERS[layer].name });
      }
    }
  }
  return upward;
}

/** The problems in the repo at `root`, one sentence each; empty when the layers hold. */
export function checkLayers(root) {
  const graph = importGraph(root);
  return [
    ...findCycles(graph).map((files) => `import cycle: ${files.join(' <-> ')}`),
    ...findUpwardImports(graph).map(
      (u) => `upward import: ${u.from} (${u.fromLayer}) imports ${u.to} (${u.toLayer})`,
    ),
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../..'));
  const problems = checkLayers(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`layers: ${problems.length} problem(s); the layers are in ARCHITECTURE.md`);
    process.exit(1);
  }
  console.log('layers: no import cycle, no upward import in main/core');
}
