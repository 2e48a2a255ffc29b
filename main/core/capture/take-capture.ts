// One capture, whatever took it: the tool writes where it is told, a scratch name in the
// private images folder (the portal writes where it likes, and its capturer copies a file it
// accepts to that name: portal-file.ts); the image is kept as a private file named like the OS
// names screenshots, and the scratch file goes. A cancel leaves nothing behind.

import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../portable/error-message';
import type { CaptureOutcome, CaptureSource } from './capture-outcome';

/** Takes the image: `scratch` is a private path a tool may write to. */
export type Capturer = (source: CaptureSource, scratch: string) => Promise<CaptureOutcome>;

export type CaptureResult =
  | { kind: 'captured'; path: string; source: CaptureSource }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export async function takeCapture(deps: {
  capturer: Capturer;
  source: CaptureSource;
  /** The private folder (the scratch file is made there). */
  dir: string;
  keep(from: string, source: CaptureSource, extra?: { thumbnail?: Uint8Array }): Promise<string>;
}): Promise<CaptureResult> {
  const scratch = join(deps.dir, `.capture-${process.pid}-${Date.now().toString(36)}.png`);
  let outcome: CaptureOutcome;
  try {
    await mkdir(deps.dir, { recursive: true, mode: 0o700 });
    outcome = await deps.capturer(deps.source, scratch);
  } catch (error) {
    outcome = { kind: 'failed', message: errorMessage(error) };
  }
  try {
    if (outcome.kind !== 'file') return outcome;
    try {
      const source = outcome.source ?? deps.source;
      const extra = outcome.thumbnail ? { thumbnail: outcome.thumbnail } : {};
      const path = await deps.keep(outcome.path, source, extra);
      return { kind: 'captured', path, source };
    } catch (error) {
      return {
        kind: 'failed',
        message: `The screenshot could not be kept: ${errorMessage(error)}`,
      };
    }
  } finally {
    await rm(scratch, { force: true });
  }
}
