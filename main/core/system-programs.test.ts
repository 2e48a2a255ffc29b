import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, win32 } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAC_PROGRAMS,
  pathProgram,
  programAt,
  systemRoot,
  windowsProgram,
} from './system-programs';

const WINDOWS_TOOLS = ['netstat.exe', 'tasklist.exe', 'rundll32.exe', 'reg.exe'] as const;

describe("Windows' own tools", () => {
  it.each(WINDOWS_TOOLS)('%s is under %%SystemRoot%%\\System32', (tool) => {
    expect(windowsProgram(tool, { SystemRoot: 'D:\\WINNT' })).toBe(`D:\\WINNT\\System32\\${tool}`);
    expect(windowsProgram(tool, { SYSTEMROOT: 'E:\\Windows\\' })).toBe(
      `E:\\Windows\\System32\\${tool}`,
    );
  });

  it.each([
    ['unset', {}],
    ['empty', { SystemRoot: '' }],
    ['a relative folder', { SystemRoot: 'Windows' }],
    ['the current drive’s root', { SystemRoot: '\\Windows' }],
    ['a network share', { SystemRoot: '\\\\server\\share' }],
  ])('a SystemRoot that is %s: C:\\Windows', (_, env) => {
    expect(systemRoot(env)).toBe('C:\\Windows');
    expect(windowsProgram('netstat.exe', env)).toBe('C:\\Windows\\System32\\netstat.exe');
  });

  it('each path is absolute, never a bare name Windows would look up in the current folder', () => {
    for (const tool of WINDOWS_TOOLS) {
      const path = windowsProgram(tool, {});
      expect(win32.isAbsolute(path)).toBe(true);
      expect(win32.dirname(path)).toBe('C:\\Windows\\System32');
    }
  });

  // The real System32: only Windows has one.
  it.runIf(process.platform === 'win32')('each tool is where its path says', async () => {
    const { existsSync } = await import('node:fs');
    for (const tool of WINDOWS_TOOLS) expect(existsSync(windowsProgram(tool))).toBe(true);
  });
});

describe("macOS's own tools", () => {
  it('are named by their full paths', () => {
    expect(MAC_PROGRAMS).toEqual({
      lsof: '/usr/sbin/lsof',
      open: '/usr/bin/open',
      ps: '/bin/ps',
      screencapture: '/usr/sbin/screencapture',
    });
  });
});

// A program found on PATH is a Linux (and other Unix) lookup; its files are made executable with
// chmod, which Windows does not have.
describe.skipIf(process.platform === 'win32')('a tool found on PATH (Linux)', () => {
  let dir: string;
  const cwd = process.cwd();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trayshare-programs-'));
    for (const sub of ['here', 'bin', 'system', 'not-executable']) {
      await mkdir(join(dir, sub));
      await writeFile(join(dir, sub, 'xdg-open'), '#!/bin/sh\n');
      await chmod(join(dir, sub, 'xdg-open'), sub === 'not-executable' ? 0o644 : 0o755);
    }
    await mkdir(join(dir, 'folder', 'xdg-open'), { recursive: true });
    process.chdir(join(dir, 'here'));
  });
  afterAll(async () => {
    process.chdir(cwd);
    await rm(dir, { recursive: true, force: true });
  });

  it('skips empty and relative entries of PATH (the current folder), a folder of the name and a file that is not executable', () => {
    const path = [
      '',
      '.',
      'bin',
      join(dir, 'folder'),
      join(dir, 'not-executable'),
      join(dir, 'system'),
    ];
    expect(pathProgram('xdg-open', { PATH: path.join(delimiter) })).toBe(
      join(dir, 'system', 'xdg-open'),
    );
  });

  it('is undefined when no folder of PATH has it', () => {
    expect(pathProgram('xdg-open', { PATH: ['', '.', join(dir, 'folder')].join(delimiter) })).toBe(
      undefined,
    );
    expect(pathProgram('gdbus', {})).toBe(undefined);
  });
});

describe('a program given by its path', () => {
  it('is taken when the path is absolute', () => {
    expect(programAt(process.execPath)).toBe(process.execPath);
  });

  it.each(['netstat', 'bin/gdbus', '.\\tasklist.exe'])('%s is refused, with words', (name) => {
    expect(() => programAt(name)).toThrow(
      `A program must be given by its full path, not "${name}".`,
    );
  });
});
