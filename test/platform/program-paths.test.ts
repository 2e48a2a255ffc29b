// Every program main/ starts is named by its full path from main/core/system-programs.ts
// (program-paths.ts says how this is checked). Windows looks a bare `netstat` up in the current
// folder first, so a file of that name where the CLI is started would run in its place.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bareProgramStarts } from './program-paths';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) =>
  readFile(join(root, 'test', 'platform', 'fixtures', name), 'utf8');

/** main/'s source, tests aside (they may start what they like, posix-spawns.test.ts aside). */
async function mainSources(): Promise<string[]> {
  const entries = await readdir(join(root, 'main'), { recursive: true });
  return entries
    .filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.test.ts'))
    .map((entry) => join(root, 'main', entry))
    .sort();
}

describe('programs main/ starts', () => {
  it('are each named by a full path from system-programs.ts, in every source file', async () => {
    const files = await mainSources();
    expect(files.length).toBeGreaterThan(100);
    const found = [];
    let starts = 0;
    for (const file of files) {
      const path = relative(root, file).split('\\').join('/');
      const source = await readFile(file, 'utf8');
      found.push(...bareProgramStarts(path, source));
      if (/from 'node:child_process'/.test(source)) starts++;
    }
    expect(found).toEqual([]);
    // The check saw the files that start programs (port-holder, open-browser, exec-runner,
    // process-identity, secret-service-state, capturers).
    expect(starts).toBeGreaterThanOrEqual(6);
  });

  it('catches the bare names main/ used before', async () => {
    // Each file as it was, and the line of its start whose program is a bare name (port-holder's
    // run(file: string) is where its lsof, netstat and tasklist were started).
    const cases = [
      ['main/core/auth/port-holder.ts', 'port-holder', 'execFile(file, args'],
      ['main/cli/open-browser.ts', 'open-browser', 'spawn(command, args'],
      ['main/core/secrets/secret-service-state.ts', 'secret-service-state', '    execFile('],
      ['main/core/queue/process-identity.ts', 'process-identity', "execFileSync('ps'"],
    ] as const;
    for (const [path, name, call] of cases) {
      const source = await fixture(`${name}.bare-names.ts.txt`);
      const line = source.split('\n').findIndex((l) => l.includes(call)) + 1;
      expect(line, call).toBeGreaterThan(0);
      expect(
        bareProgramStarts(path, source).map((s) => s.line),
        path,
      ).toEqual([line]);
    }
  });

  it('accepts the module’s paths, and names typed ProgramPath, and nothing else', () => {
    const good = `
      import { execFile, execFileSync, spawn } from 'node:child_process';
      import { MAC_PROGRAMS, type ProgramPath, windowsProgram } from '../system-programs';
      execFile(MAC_PROGRAMS.lsof, []);
      spawn(windowsProgram('netstat.exe'), []);
      function run(file: ProgramPath, args: string[]) { return execFile(file, args); }
      function capture(program: ProgramPath = MAC_PROGRAMS.screencapture) { spawn(program, []); }
      const tool = windowsProgram('reg.exe');
      execFileSync(tool, []);
      const maybe: ProgramPath | undefined = undefined;
      if (maybe) spawn(maybe, []);
    `;
    expect(bareProgramStarts('main/core/good.ts', good)).toEqual([]);
    const bad = `
      import { execFile, exec, spawn } from 'node:child_process';
      import * as cp from 'node:child_process';
      import { promisify } from 'node:util';
      import type { ProgramPath } from '../system-programs';
      execFile('netstat', ['-ano']);
      spawn('/usr/bin/open', []);
      exec('xdg-open x');
      function run(file: string) { return execFile(file, []); }
      cp.spawnSync('reg.exe', []);
      const later = promisify(execFile);
      const forged = 'tasklist' as ProgramPath;
    `;
    expect(bareProgramStarts('main/core/bad.ts', bad).map((s) => s.line)).toEqual([
      6, 7, 8, 9, 10, 11, 12,
    ]);
  });
});
