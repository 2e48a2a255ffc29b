// What the source checks of test/platform share: a TypeScript file parsed with oxc-parser, and
// its syntax tree walked node by node with the path that led there.
import { parseSync } from 'oxc-parser';

export interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** The file parsed, and its tree's root; a file that does not parse is an error naming it. */
export function parseSource(file: string, source: string) {
  const parsed = parseSync(file, source);
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`);
  return { parsed, root: parsed.program as unknown as Node };
}

/** Calls `visit` for every node, outermost first, with its ancestors and its key in its parent. */
export function walkTree(
  root: Node,
  visit: (node: Node, ancestors: readonly Node[], key: string) => void,
): void {
  const walk = (node: Node, ancestors: Node[], key: string) => {
    visit(node, ancestors, key);
    const next = [...ancestors, node];
    for (const [k, value] of Object.entries(node)) {
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) walk(item, next, k);
      } else if (isNode(value)) {
        walk(value, next, k);
      }
    }
  };
  walk(root, [], '');
}

/** The line (from 1) an offset of the source falls on. */
export const lineAt = (source: string, offset: number): number =>
  source.slice(0, offset).split('\n').length;
