// A class's work is found in its own file. A class that extends another of the project's classes
// does its work in the base class's file, behind `this.` calls that look like its own, so a
// reader who opens the class does not find what it does (the upload queue once found its
// scheduling in its base class). The project composes instead: a class builds the parts it owns
// and calls them by name. Errors are the exception: an error class extends Error (or another
// error class) so that `catch` can tell failures apart with instanceof. Classes of packages
// (a Node stream, say) may be extended: their work is documented where they come from.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNode, lineAt, type Node, parseSource, walkTree } from './syntax-tree';

const root = join(import.meta.dirname, '..', '..');
const SOURCE = /\.(ts|tsx|mts)$/;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'));
}

const nameOf = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Identifier' ? (node.name as string) : undefined;

/** Classes of the file that extend a class of the project's own code, as "file:line Class extends Base". */
function inheritingClasses(file: string, source: string): string[] {
  // Most files declare no class that extends anything: those are not parsed (the check stays
  // quick in `npm test`).
  if (!/\bclass\b/.test(source) || !/\bextends\b/.test(source)) return [];
  const { root: tree } = parseSource(file, source);
  // The project's own classes as this file sees them: declared here, or imported from a
  // relative path (a package's import path never starts with a dot).
  const own = new Set<string>();
  const classes: Node[] = [];
  walkTree(tree, (node) => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      classes.push(node);
      const name = nameOf(node.id);
      if (name) own.add(name);
    }
    if (node.type === 'ImportDeclaration') {
      const from = (node.source as { value: string }).value;
      if (!from.startsWith('.')) return;
      for (const spec of node.specifiers as Node[]) {
        const local = nameOf(spec.local);
        if (local) own.add(local);
      }
    }
  });
  const found: string[] = [];
  for (const node of classes) {
    const base = nameOf(node.superClass);
    if (!base || !own.has(base) || base.endsWith('Error')) continue;
    const name = nameOf(node.id) ?? '(a class expression)';
    found.push(`${file}:${lineAt(source, node.start)} ${name} extends ${base}`);
  }
  return found;
}

describe("a class's work is in its own file", () => {
  it('no class in main/, renderer/ or preload/ extends another class of the project (errors aside)', () => {
    const found = ['main', 'renderer', 'preload'].flatMap((dir) =>
      sources(dir).flatMap((file) =>
        inheritingClasses(file, readFileSync(join(root, file), 'utf8')),
      ),
    );
    expect(found, 'classes that inherit their work: own the part instead').toEqual([]);
  });

  it('finds a class that extends one it imports, and lets errors and packages be', () => {
    const planted = [
      "import { Base } from './base';",
      "import { Transform } from 'node:stream';",
      "import { RefusedError } from '../refused-error';",
      'class Local {}',
      'export class Queue extends Base {}',
      'class Held extends Local {}',
      'class Cut extends Transform {}',
      'class Refused extends RefusedError {}',
      'class Plain extends Error {}',
    ].join('\n');
    expect(inheritingClasses('main/core/planted.ts', planted)).toEqual([
      'main/core/planted.ts:5 Queue extends Base',
      'main/core/planted.ts:6 Held extends Local',
    ]);
  });
});
