// Paths handed to the app by the file manager: `<exe> --share <path>…` on the command line
// (first start), in `second-instance` (app already running) or through macOS `open-file`.
// Windows starts one process per selected file, so paths arriving close together are
// gathered into one share.
import { isAbsolute, resolve } from 'node:path';

export const SHARE_FLAG = '--share';

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
      if (arg !== '') paths.push(isAbsolute(arg) ? arg : resolve(cwd, arg));
    }
  }
  return paths;
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

export interface PathBatcherOptions {
  /** A batch closes once no path arrived for this long. */
  quietMs?: number;
  /** …or this long after its first path, however busy the hand-off still is. */
  maxWaitMs?: number;
  onBatch: (paths: string[]) => void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export interface PathBatcher {
  add(paths: readonly string[]): void;
  /** Closes the current batch now (nothing happens when it is empty). */
  flush(): void;
  dispose(): void;
}

export function createPathBatcher(options: PathBatcherOptions): PathBatcher {
  const quietMs = options.quietMs ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 3000;
  const setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer =
    options.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let batch: string[] = [];
  let seen = new Set<string>();
  let firstAt = 0;
  let timer: unknown;

  const flush = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
    if (batch.length === 0) return;
    const paths = batch;
    batch = [];
    seen = new Set();
    options.onBatch(paths);
  };

  return {
    add(paths) {
      const fresh = paths.filter((p) => !seen.has(p));
      if (fresh.length === 0) return;
      const now = Date.now();
      if (batch.length === 0) firstAt = now;
      for (const p of fresh) {
        seen.add(p);
        batch.push(p);
      }
      if (timer !== undefined) clearTimer(timer);
      const wait = Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - now));
      timer = setTimer(flush, wait);
    },
    flush,
    dispose() {
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
      batch = [];
      seen = new Set();
    },
  };
}
