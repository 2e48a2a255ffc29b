// No TurboFan in a long upload: its hot path is Node's own stream code and the kernel's copies,
// and V8's top tier, once it starts, faults in ~5 MB of its compiler's code, so peak memory grew
// with the file's size (56 MB at 256 MiB, 63 MB at 1 GiB; bench/notes.md). Maglev, the
// tier below, keeps the CPU per GiB the same and the memory flat. Loading node:v8 to say so costs
// about 7 ms of CPU, which sending one small file need not pay (bench/notes.md, start-up). The cap
// must be on before the upload's code first runs: set at its first request, even before any body
// byte, a 1 GiB send still peaked at 62 MB (bench/notes.md).
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** A file long enough to keep the upload's code hot for a while. */
export const LONG_FILE_BYTES = 16 * 1024 * 1024;

let capped = false;

/** Caps V8 at Maglev for the rest of the process (a run that uploads from the queue). */
export function capOptimizer(): void {
  if (capped) return;
  capped = true;
  const v8 = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString('--max-opt=2');
}

/** Caps V8 before a direct send, unless it is one small file (or one the engine will refuse). */
export async function capOptimizerFor(paths: readonly string[]): Promise<void> {
  if (paths.length === 1) {
    const size = await stat(paths[0]!).then(
      (s) => s.size,
      () => 0,
    );
    if (size < LONG_FILE_BYTES) return;
  }
  capOptimizer();
}
