// The programs Trayshare starts, each by its full path, in one place. A bare name is looked up,
// and where the lookup starts decides which program runs:
// - Windows: Node's spawn (libuv, src/win/process.c, search_path: "The file is really only a
//   name; look in cwd first, then scan path") tries the current folder before PATH, so a
//   `netstat.exe` in the folder the CLI was started from would run in its place. Windows' own
//   tools are taken from System32 under %SystemRoot% (C:\Windows when it is unset or not a
//   drive path).
// - macOS: the tools are part of the system at fixed places (/usr/sbin, /usr/bin, /bin), the
//   same on every Mac, so they are named there and PATH is not asked.
// - Linux: xdg-open and gdbus have no one place (/usr/bin on most distributions, but
//   /run/current-system/sw/bin on NixOS, ~/.guix-profile/bin on Guix, /app/bin in a Flatpak).
//   Linux's own lookup (execvp) searches only PATH, not the current folder, unless PATH has an
//   empty or relative entry; so PATH is searched here, its absolute folders only, and the
//   program is started by the full path found.
// main/**/*.ts starts programs only with a ProgramPath, which only this module makes
// (test/platform/program-paths.test.ts checks every spawn).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, win32 } from 'node:path';

declare const fullPath: unique symbol;
/** A program's full path, chosen here. */
export type ProgramPath = string & { readonly [fullPath]: true };

const fixed = (path: string) => path as ProgramPath;

/** macOS's own tools, where every macOS has them. */
export const MAC_PROGRAMS = {
  lsof: fixed('/usr/sbin/lsof'),
  open: fixed('/usr/bin/open'),
  ps: fixed('/bin/ps'),
  screencapture: fixed('/usr/sbin/screencapture'),
} as const;

/** Windows' own tools, all in System32. */
type WindowsProgram = 'netstat.exe' | 'tasklist.exe' | 'rundll32.exe' | 'reg.exe';

/** Where Windows is: %SystemRoot% when it is a drive path (C:\Windows), else C:\Windows. */
export function systemRoot(env: NodeJS.ProcessEnv = process.env): string {
  // process.env is case-insensitive on Windows; an environment passed in as an object is not.
  const root = env.SystemRoot ?? env.SYSTEMROOT;
  if (root && /^[A-Za-z]:[\\/]/.test(root)) return win32.normalize(root);
  return 'C:\\Windows';
}

/** `<SystemRoot>\System32\<program>`. */
export function windowsProgram(
  program: WindowsProgram,
  env: NodeJS.ProcessEnv = process.env,
): ProgramPath {
  return win32.join(systemRoot(env), 'System32', program) as ProgramPath;
}

/** Linux tools found on PATH (see above why these are not named at one place). */
type PathProgram = 'xdg-open' | 'gdbus';

/**
 * The full path of `program` in the first absolute folder of PATH that holds it as an
 * executable file; undefined when none does (it is not installed).
 */
export function pathProgram(
  program: PathProgram,
  env: NodeJS.ProcessEnv = process.env,
): ProgramPath | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    // An empty or relative entry would be the current folder, or a folder under it.
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, program);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate as ProgramPath;
    } catch {
      // Not here: the next folder.
    }
  }
  return undefined;
}

/**
 * A program given by its full path (this process's own executable, a test's stand-in);
 * throws for a bare name or a relative path, which would be looked up.
 */
export function programAt(path: string): ProgramPath {
  if (!isAbsolute(path) && !win32.isAbsolute(path)) {
    throw new Error(`A program must be given by its full path, not "${path}".`);
  }
  return path as ProgramPath;
}
