// Every test runs on Windows and macOS too, or says why not: a test that starts /bin/sh, bash or
// another POSIX-only program must be under a platform guard (posix-spawns.ts). This runs in
// `npm test` over every test file vitest runs.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unguardedPosixSpawns } from './posix-spawns';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) =>
  readFile(join(root, 'test', 'platform', 'fixtures', name), 'utf8');

/** The test files of vitest.config.ts's include list. */
async function testFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const top of ['main', 'preload', 'renderer', 'test', 'build', 'bench']) {
    const entries = await readdir(join(root, top), { recursive: true });
    for (const entry of entries) {
      if (entry.endsWith('.test.ts') && !entry.includes('node_modules')) {
        files.push(join(root, top, entry));
      }
    }
  }
  return files.sort();
}

describe('tests that start POSIX-only programs', () => {
  it('are each under a platform guard, in every test file', async () => {
    const files = await testFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = [];
    for (const file of files) {
      const path = relative(root, file).split('\\').join('/');
      found.push(...unguardedPosixSpawns(path, await readFile(file, 'utf8')));
    }
    expect(found).toEqual([]);
  });

  it('catches the unguarded /bin/sh and /bin/echo of the integration tests as they were', async () => {
    const quoting = 'main/core/integration/quoting.test.ts';
    expect(unguardedPosixSpawns(quoting, await fixture('quoting.before-34.ts.txt'))).toEqual([
      { file: quoting, line: 38, program: '/bin/sh' },
    ]);
    const integration = 'main/core/integration/integration.test.ts';
    expect(
      unguardedPosixSpawns(integration, await fixture('integration.before-34.ts.txt')),
    ).toEqual([
      { file: integration, line: 15, program: '/bin/echo' },
      { file: integration, line: 17, program: '/bin/sh' },
    ]);
  });

  it('accepts each kind of guard, and nothing else', () => {
    const guarded = `
      describe.skipIf(process.platform === 'win32')('a', () => { it('b', () => spawn('sh')); });
      it.runIf(linux)('c', () => execFileSync('gio', []));
      if (process.platform !== 'win32') execFile('/bin/sh', []);
      it('d', (ctx) => { if (process.platform !== 'linux') ctx.skip('why'); run('mount', []); });
      const e = posix ? spawnSync('bash', []) : null;
      // posix-only: only called from the Linux suite above
      function f() { return execFileSync('mkfifo', []); }
      execSync('git status');
      spawn(process.execPath, ['x']);
    `;
    expect(unguardedPosixSpawns('ok.test.ts', guarded)).toEqual([]);
    const bare = `
      it('a', () => execFileSync('/bin/sh', ['-c', 'true']));
      it.skipIf(isCI)('b', () => execSync('sleep 1'));
      // a comment that says nothing about the platform
      function f() { return spawn('bash', []); }
    `;
    expect(unguardedPosixSpawns('bare.test.ts', bare).map((s) => s.program)).toEqual([
      '/bin/sh',
      'sleep',
      'bash',
    ]);
  });
});
