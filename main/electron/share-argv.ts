// What a launch's command line asks to share: `<exe> --share <path>…`, as the file manager
// starts it, read from this process's argv or from the argv a second launch hands over.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSetupLink } from '../core/setup-link-check';

const SHARE_FLAG = '--share';

/**
 * The paths after `--share`, resolved against `cwd`. Switches after the paths are skipped:
 * Chromium appends its own (`--original-process-start-time=…`) to a second instance's argv.
 * After a literal `--`, everything is a path.
 */
export function sharePathsFromArgv(argv: readonly string[], cwd: string): string[] {
  const start = argv.indexOf(SHARE_FLAG);
  if (start === -1) return [];
  const paths: string[] = [];
  let literal = false;
  for (const arg of argv.slice(start + 1)) {
    if (!literal && arg === '--') {
      literal = true;
    } else if (literal || !arg.startsWith('--')) {
      // A desktop entry that takes both files and the trayshare: scheme passes the link here.
      if (arg !== '' && (literal || !isSetupLink(arg))) paths.push(pathOf(arg, cwd, literal));
    }
  }
  return paths;
}

/**
 * A path as a desktop entry's %U hands it over: a plain path, or a file: URL (the Desktop Entry
 * spec lets a launcher pass local files either way; GLib sends paths, others may not).
 */
function pathOf(arg: string, cwd: string, literal: boolean): string {
  if (!literal && arg.startsWith('file://')) {
    try {
      return fileURLToPath(arg);
    } catch {
      // Not a local file URL (file://host/…): kept as given, and reported as not found later.
    }
  }
  return isAbsolute(arg) ? arg : resolve(cwd, arg);
}

/** What a starting instance sends to the running one (app.requestSingleInstanceLock's data). */
export interface HandOffData {
  argv: string[];
  cwd: string;
}

function isHandOff(value: unknown): value is HandOffData {
  const v = value as HandOffData | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.argv) &&
    v.argv.every((a) => typeof a === 'string') &&
    typeof v.cwd === 'string'
  );
}

/**
 * Paths from a `second-instance` event. The argv Electron passes may be reordered and carry
 * extra switches, so the exact argv the second instance sent as additional data wins.
 */
export function pathsFromSecondInstance(
  argv: readonly string[],
  workingDirectory: string,
  additionalData: unknown,
): string[] {
  if (isHandOff(additionalData)) return sharePathsFromArgv(additionalData.argv, additionalData.cwd);
  return sharePathsFromArgv(argv, workingDirectory);
}
