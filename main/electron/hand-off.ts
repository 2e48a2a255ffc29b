// Paths handed to the running app: its own argv at start, `second-instance` (another launch
// while running; Windows starts one per selected file), macOS `open-file` (Finder's Open With,
// a drop on the Dock icon; it can fire before `ready`). Paths close together become one share;
// shares wait until the desktop app is up. A team's trayshare://setup link comes the same ways
// (on the command line on Windows and Linux, as macOS's `open-url`) and waits the same way.
import { setupLinkFromArgv } from '../core/setup-link-check';
import { type HandOffData, pathsFromSecondInstance, sharePathsFromArgv } from './share-argv';

export interface PathBatcherOptions {
  /** A batch closes once no path arrived for this long. */
  quietMs?: number;
  /** …or this long after its first path, however busy the hand-off still is. */
  maxWaitMs?: number;
  onBatch: (paths: string[]) => void;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

interface PathBatcher {
  add(paths: readonly string[]): void;
  /** Closes the current batch now (nothing happens when it is empty). */
  flush(): void;
  dispose(): void;
}

function createPathBatcher(options: PathBatcherOptions): PathBatcher {
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

export interface HandOffApp {
  on(
    event: 'second-instance',
    listener: (
      event: unknown,
      argv: string[],
      workingDirectory: string,
      additionalData: unknown,
    ) => void,
  ): this;
  on(event: 'open-file', listener: (event: { preventDefault(): void }, path: string) => void): this;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): this;
}

export interface HandOff {
  /** From now on shares go to `target` (the ones that arrived earlier go at once). */
  deliverTo(target: (paths: string[]) => void): void;
  /** From now on set-up links go to `target` (one that arrived earlier goes at once). */
  deliverLinksTo(target: (link: string) => void): void;
}

/** The set-up link of a second launch: the argv it sent itself wins, as for paths. */
function linkFromSecondInstance(
  argv: readonly string[],
  additionalData: unknown,
): string | undefined {
  const sent = (additionalData as HandOffData | null)?.argv;
  return setupLinkFromArgv(Array.isArray(sent) ? sent.filter((a) => typeof a === 'string') : argv);
}

export function listenForHandOff(
  app: HandOffApp,
  opts: {
    argv: readonly string[];
    cwd: string;
    /** A second launch without paths: the person wants to see the app. */
    onActivate: () => void;
    batch?: Omit<PathBatcherOptions, 'onBatch'>;
  },
): HandOff {
  let target: ((paths: string[]) => void) | undefined;
  const waiting: string[][] = [];
  const batcher = createPathBatcher({
    ...opts.batch,
    onBatch: (paths) => {
      if (target) target(paths);
      else waiting.push(paths);
    },
  });

  let linkTarget: ((link: string) => void) | undefined;
  let waitingLink: string | undefined;
  const link = (raw: string) => {
    if (linkTarget) linkTarget(raw);
    else waitingLink = raw;
  };

  batcher.add(sharePathsFromArgv(opts.argv, opts.cwd));
  const startLink = setupLinkFromArgv(opts.argv);
  if (startLink) link(startLink);
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    const setupLink = linkFromSecondInstance(argv, additionalData);
    if (setupLink) return link(setupLink);
    const paths = pathsFromSecondInstance(argv, workingDirectory, additionalData);
    if (paths.length > 0) batcher.add(paths);
    else opts.onActivate();
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    batcher.add([path]);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    link(url);
  });

  return {
    deliverTo(next) {
      target = next;
      for (const paths of waiting.splice(0)) next(paths);
    },
    deliverLinksTo(next) {
      linkTarget = next;
      if (waitingLink !== undefined) next(waitingLink);
      waitingLink = undefined;
    },
  };
}
