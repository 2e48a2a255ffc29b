// Paths handed to the running app: its own argv at start, `second-instance` (another launch
// while running; Windows starts one per selected file), macOS `open-file` (Finder's Open With,
// a drop on the Dock icon; it can fire before `ready`). Paths close together become one share;
// shares wait until the shell is up.
import {
  createPathBatcher,
  type PathBatcherOptions,
  pathsFromSecondInstance,
  sharePathsFromArgv,
} from './share-paths';

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
}

export interface HandOff {
  /** From now on shares go to `target` (the ones that arrived earlier go at once). */
  deliverTo(target: (paths: string[]) => void): void;
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

  batcher.add(sharePathsFromArgv(opts.argv, opts.cwd));
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    const paths = pathsFromSecondInstance(argv, workingDirectory, additionalData);
    if (paths.length > 0) batcher.add(paths);
    else opts.onActivate();
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    batcher.add([path]);
  });

  return {
    deliverTo(next) {
      target = next;
      for (const paths of waiting.splice(0)) next(paths);
    },
  };
}
