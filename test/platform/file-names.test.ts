// No two source files share a name, so a name in a comment, a stack trace or a search finds one
// file. Only the two entry points keep the name their tools give them: the main process's and
// the preload's index.ts (electron-vite's `main` and `preload` entries). Tests are outside the
// rule: a test is named for the module or behaviour it checks, in the folder of its area.
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const ENTRY_POINTS = new Set(['main/electron/index.ts', 'preload/index.ts']);

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((path) => !ENTRY_POINTS.has(path) && !path.includes('/fixtures/'));
}

describe('source file names', () => {
  it('are each used once across main/, renderer/, preload/, bench/ and build/', () => {
    const byName = new Map<string, string[]>();
    for (const dir of ['main', 'renderer', 'preload', 'bench', 'build']) {
      for (const path of sources(dir)) {
        byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
      }
    }
    const twice = [...byName.values()].filter((paths) => paths.length > 1);
    expect(twice, 'source files that share a name').toEqual([]);
  });
});
