// What a reader of README.md and docs/ runs into: a link to a file that is not there, an anchor
// that names no heading, a page in docs/ that no link leads to. Links are read with marked's
// lexer (so a link inside a code block is not one) and headings are turned into anchors with
// github-slugger, the slug rule GitHub uses for the ids of rendered headings.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import { lexer, type Token, walkTokens } from 'marked';

/** The most lines README.md may have: what it is, Download, run and test, the CLI, links. */
export const README_MAX_LINES = 200;

interface Page {
  links: string[];
  anchors: Set<string>;
}

/** The plain text of a heading, as GitHub renders it before making its id. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) =>
      'tokens' in token && Array.isArray(token.tokens)
        ? plainText(token.tokens)
        : 'text' in token && typeof token.text === 'string'
          ? token.text
          : '',
    )
    .join('');
}

function readPage(text: string): Page {
  const tokens = lexer(text);
  const links: string[] = [];
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walkTokens(tokens, (token) => {
    if (token.type === 'link' || token.type === 'image') links.push(token.href);
    if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])));
  });
  return { links, anchors };
}

/** A link that leaves the repository (a web address, mail) is not checked here. */
const external = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);

const posix = (path: string) => path.split(sep).join('/');

/**
 * Files to read in place of the ones on disk (or beside them), by path relative to the root:
 * how the tests plant a fault without copying the repository.
 */
type Planted = Readonly<Record<string, string>>;

/** README.md, ARCHITECTURE.md and every Markdown file directly in docs/, relative to the root. */
export function docPages(root: string, planted: Planted = {}): string[] {
  const onDisk = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)
    : [];
  const docs = new Set(
    [...onDisk, ...Object.keys(planted)].filter((f) => /^docs\/[^/]+\.md$/.test(f)),
  );
  return ['README.md', 'ARCHITECTURE.md', ...[...docs].sort()];
}

/**
 * Every problem a reader would meet, one sentence each: README.md too long, a relative link or
 * anchor in README.md, ARCHITECTURE.md or docs/*.md that does not resolve, a docs page no link reaches from README.
 */
export function docProblems(root: string, planted: Planted = {}): string[] {
  const text = (file: string) => planted[file] ?? readFileSync(join(root, file), 'utf8');
  const exists = (file: string) => file in planted || existsSync(join(root, file));
  const problems: string[] = [];
  const readmeLines = text('README.md').trimEnd().split('\n').length;
  if (readmeLines > README_MAX_LINES) {
    problems.push(`README.md has ${readmeLines} lines, more than ${README_MAX_LINES}`);
  }
  const pages = new Map<string, Page>();
  const page = (file: string) => {
    let found = pages.get(file);
    if (!found) {
      found = readPage(text(file));
      pages.set(file, found);
    }
    return found;
  };
  const reached = new Set<string>(['README.md']);
  const queue = ['README.md'];
  const checked = new Set(docPages(root, planted));
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const href of page(file).links) {
      if (external(href)) continue;
      const [pathPart = '', anchor] = href.split('#', 2);
      const targetAbs = pathPart
        ? resolve(root, dirname(file), decodeURIComponent(pathPart))
        : join(root, file);
      const target = posix(relative(root, targetAbs));
      const report = checked.has(file);
      if (target.startsWith('..')) {
        if (report) problems.push(`${file}: ${href} points outside the repository`);
        continue;
      }
      if (!exists(target)) {
        if (report) problems.push(`${file}: ${href} names a file that does not exist`);
        continue;
      }
      const markdown =
        target.endsWith('.md') && (target in planted || statSync(targetAbs).isFile());
      if (markdown && anchor && report && !page(target).anchors.has(anchor)) {
        problems.push(`${file}: ${href} names no heading in ${target}`);
      }
      if (markdown && !reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  for (const file of checked) {
    if (!reached.has(file)) problems.push(`${file} is not reachable by links from README.md`);
  }
  return problems;
}
