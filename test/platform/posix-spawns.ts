// Finds tests that start /bin/sh, bash or another POSIX-only program without a platform guard:
// on a Windows runner such a test dies with ENOENT instead of saying why it cannot run there.
// A start is guarded when it sits in a `describe/it.skipIf(…)`/`runIf(…)` whose condition
// names the platform, in an `if`/`?:`/`&&` on the platform, after an early `return`/`throw`/
// `ctx.skip()` on the platform, or under a `posix-only: <why>` comment (for helpers that only
// guarded tests call). The source is parsed (oxc-parser, the parser knip runs), not grepped.
import { isNode, lineAt, type Node, parseSource, walkTree } from './syntax-tree';

/** Programs a stock Windows does not have (curl, tar and ssh it does: System32). */
const POSIX_TOOLS = new Set([
  'sh',
  'bash',
  'echo',
  'printf',
  'cat',
  'chmod',
  'mkfifo',
  'mount',
  'umount',
  'gio',
  'gdbus',
  'dbus-run-session',
  'dpkg-query',
  'desktop-file-validate',
  'xvfb-run',
  'kill',
  'ps',
  'env',
  'true',
  'false',
  'sleep',
  'ls',
  'grep',
  'sed',
  'awk',
  'python3',
  'id',
  'stat',
  'touch',
  'ln',
  'gnome-keyring-daemon',
  'secret-tool',
  'xdg-open',
  'xdg-mime',
]);

// child_process's, execFileRunner (main/core/integration) and promisify(execFile) named `run`.
const SPAWNS = /^(spawn\w*|exec|execSync|execFile\w*|run)$/;
const PLATFORM = /process\.platform|\bplatform\b|\blinux\b|win32|windows|darwin|\bposix\b/i;
const MARKER = 'posix-only:';

export interface UnguardedSpawn {
  file: string;
  line: number;
  program: string;
}

function calleeName(callee: Node): string | undefined {
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression') return calleeName(callee.property as Node);
  return undefined;
}

/** The program a spawn-like call starts, when its first argument is a literal. */
function programOf(call: Node): string | undefined {
  const name = calleeName(call.callee as Node);
  if (!name || !SPAWNS.test(name)) return undefined;
  const first = (call.arguments as Node[])[0];
  let text: string | undefined;
  if (first?.type === 'Literal' && typeof first.value === 'string') text = first.value;
  if (first?.type === 'TemplateLiteral' && (first.expressions as Node[]).length === 0) {
    text = ((first.quasis as Node[])[0]?.value as { cooked: string } | undefined)?.cooked;
  }
  if (text === undefined) return undefined;
  // exec/execSync take a command line: its first word is the program.
  const program = /^exec(Sync)?$/.test(name) ? (text.trim().split(/\s+/)[0] ?? '') : text;
  return program;
}

const isPosixOnly = (program: string) =>
  program.startsWith('/') || POSIX_TOOLS.has(program.split('/').pop() ?? program);

const exits = (statement: Node, source: string): boolean => {
  const text = source.slice(statement.start, statement.end);
  return /\breturn\b|\bthrow\b|\.skip\(/.test(text);
};

/** Whether `node`, under `ancestors` (outermost first), only runs on a checked platform. */
function guarded(
  ancestors: readonly Node[],
  node: Node,
  source: string,
  markers: number[],
): boolean {
  const chain = [...ancestors, node];
  for (let i = 0; i < chain.length; i++) {
    const a = chain[i] as Node;
    const child = chain[i + 1];
    const text = (n: unknown) => (isNode(n) ? source.slice(n.start, n.end) : '');
    // describe.skipIf(cond)(…) / it.runIf(cond)(…)
    if (a.type === 'CallExpression' && isNode(a.callee) && a.callee.type === 'CallExpression') {
      const inner = a.callee;
      const name = calleeName(inner.callee as Node);
      if (
        (name === 'skipIf' || name === 'runIf') &&
        PLATFORM.test(text((inner.arguments as Node[])[0]))
      ) {
        return true;
      }
    }
    if (
      (a.type === 'IfStatement' || a.type === 'ConditionalExpression') &&
      child !== a.test &&
      PLATFORM.test(text(a.test))
    ) {
      return true;
    }
    if (a.type === 'LogicalExpression' && child === a.right && PLATFORM.test(text(a.left))) {
      return true;
    }
    // An early exit on the platform before the statement that holds the call.
    if ((a.type === 'BlockStatement' || a.type === 'Program') && child) {
      for (const statement of a.body as Node[]) {
        if (statement === child) break;
        if (
          statement.type === 'IfStatement' &&
          PLATFORM.test(text(statement.test)) &&
          exits(statement.consequent as Node, source)
        ) {
          return true;
        }
      }
    }
    // A `posix-only:` comment just above a function, statement or declaration on the way.
    const above = (end: number) => /^(\s|\/\/[^\n]*)*$/.test(source.slice(end, a.start));
    if (markers.some((end) => end <= a.start && above(end))) {
      return true;
    }
  }
  return false;
}

/** Starts of POSIX-only programs in one test file that no platform guard covers. */
export function unguardedPosixSpawns(file: string, source: string): UnguardedSpawn[] {
  const { parsed, root } = parseSource(file, source);
  const markers = parsed.comments
    .filter((comment) => comment.value.trim().startsWith(MARKER))
    .map((comment) => comment.end);
  const found: UnguardedSpawn[] = [];
  walkTree(root, (node, ancestors) => {
    if (node.type !== 'CallExpression') return;
    const program = programOf(node);
    if (program && isPosixOnly(program) && !guarded(ancestors, node, source, markers)) {
      found.push({ file, line: lineAt(source, node.start), program });
    }
  });
  return found;
}
