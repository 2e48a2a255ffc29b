// Finds programs main/ starts by a bare name. A bare name is looked up, on Windows in the current
// folder first (main/core/system-programs.ts says where each OS looks), so every start of a
// program must name it by the full path system-programs.ts chose. The rule, per source file:
// - every call of a node:child_process function (spawn, execFile, execFileSync, fork, ...)
//   takes as its program a value from system-programs.ts: one of its names (MAC_PROGRAMS.lsof),
//   a call of one (windowsProgram('netstat.exe')), or a name declared in the file with the type
//   ProgramPath or set from such a value;
// - exec and execSync are never used (they run a shell, which looks the program up itself);
// - a child_process function is only called, never handed on (promisify(execFile) would start
//   programs this check cannot see);
// - nothing outside system-programs.ts makes a ProgramPath with `as`.
// Strict TypeScript then holds every ProgramPath to what system-programs.ts made. The source
// is parsed with oxc-parser (as posix-spawns.ts does), not grepped.
import { isNode, lineAt, type Node, parseSource, walkTree } from './syntax-tree';

export interface BareStart {
  file: string;
  line: number;
  /** What is wrong, for the test's failure message. */
  problem: string;
}

const CHILD_PROCESS = new Set(['node:child_process', 'child_process']);
const PROGRAMS_MODULE = /(^|\/)system-programs(\.ts)?$/;
const SHELL = new Set(['exec', 'execSync']);

/** Every node of the tree with its parent. */
function nodesOf(root: Node): { node: Node; parent: Node | undefined; key: string }[] {
  const out: { node: Node; parent: Node | undefined; key: string }[] = [];
  walkTree(root, (node, ancestors, key) => out.push({ node, parent: ancestors.at(-1), key }));
  return out;
}

const namesProgramPath = (annotation: unknown, source: string): boolean =>
  isNode(annotation) && /\bProgramPath\b/.test(source.slice(annotation.start, annotation.end));

/** Starts of programs in one main/ source file not named by system-programs.ts's full paths. */
export function bareProgramStarts(file: string, source: string): BareStart[] {
  const { parsed, root } = parseSource(file, source);
  const found: BareStart[] = [];
  const report = (node: Node, problem: string) =>
    found.push({ file, line: lineAt(source, node.start), problem });

  /** Local name -> the child_process export it is (`*` for the namespace). */
  const childProcess = new Map<string, string>();
  const fromPrograms = new Set<string>();
  for (const imp of parsed.module.staticImports) {
    const from = imp.moduleRequest.value;
    for (const entry of imp.entries) {
      if (CHILD_PROCESS.has(from)) {
        childProcess.set(entry.localName.value, entry.importName.name ?? '*');
      }
      if (PROGRAMS_MODULE.test(from) && !entry.isType) fromPrograms.add(entry.localName.value);
    }
  }
  if (/(^|\/)require\(['"](node:)?child_process['"]\)/.test(source)) {
    found.push({ file, line: 1, problem: 'child_process taken with require: not checked' });
  }
  const all = nodesOf(root);
  const isProgramsModule = PROGRAMS_MODULE.test(file.replace(/\.ts$/, ''));

  /** The declarations of `name` in this file: parameters and variables. */
  const declarations = (name: string) =>
    all.filter(
      ({ node, parent, key }) =>
        node.type === 'Identifier' &&
        node.name === name &&
        parent !== undefined &&
        (key === 'params' ||
          (parent.type === 'AssignmentPattern' && key === 'left') ||
          (parent.type === 'VariableDeclarator' && key === 'id')),
    );

  /** Whether `value` is a full path from system-programs.ts (see the file's comment). */
  const fromModule = (value: unknown, seen: Set<string>): boolean => {
    if (!isNode(value)) return false;
    if (value.type === 'Identifier') {
      const name = value.name as string;
      if (fromPrograms.has(name)) return true;
      if (seen.has(name)) return false;
      const decls = declarations(name);
      return (
        decls.length > 0 &&
        decls.every(({ node, parent }) => {
          if (namesProgramPath(node.typeAnnotation, source)) return true;
          if (parent?.type === 'AssignmentPattern') return false;
          if (parent?.type === 'VariableDeclarator') {
            return fromModule(parent.init, new Set([...seen, name]));
          }
          return false;
        })
      );
    }
    if (value.type === 'MemberExpression') return fromModule(value.object, seen);
    if (value.type === 'CallExpression') {
      const callee = value.callee as Node;
      return callee.type === 'Identifier' && fromPrograms.has(callee.name as string);
    }
    return false;
  };

  for (const { node, parent, key } of all) {
    if (
      !isProgramsModule &&
      (node.type === 'TSAsExpression' ||
        node.type === 'TSTypeAssertion' ||
        node.type === 'TSSatisfiesExpression') &&
      namesProgramPath(node.typeAnnotation, source)
    ) {
      report(node, 'a ProgramPath made outside system-programs.ts');
    }
    if (node.type !== 'Identifier' || !childProcess.has(node.name as string)) continue;
    // The import itself.
    if (parent?.type === 'ImportSpecifier' || parent?.type?.startsWith('Import')) continue;
    const imported = childProcess.get(node.name as string)!;
    let call: Node | undefined;
    let fn = imported;
    if (imported === '*' && parent?.type === 'MemberExpression' && key === 'object') {
      const holder = all.find((n) => n.node === parent);
      const property = parent.property as Node;
      fn = (property.name as string | undefined) ?? '?';
      if (holder?.parent?.type === 'CallExpression' && holder.key === 'callee') {
        call = holder.parent;
      }
    } else if (parent?.type === 'CallExpression' && key === 'callee') {
      call = parent;
    }
    if (!call) {
      report(node, `${node.name as string} is handed on, not called: its program is not checked`);
      continue;
    }
    if (SHELL.has(fn)) {
      report(call, `${fn} runs a shell, which looks the program up by name`);
      continue;
    }
    const program = (call.arguments as Node[])[0];
    if (!fromModule(program, new Set())) {
      const text = program ? source.slice(program.start, program.end) : '(nothing)';
      report(call, `${fn}(${text}, …): the program is not a full path from system-programs.ts`);
    }
  }
  return found;
}
