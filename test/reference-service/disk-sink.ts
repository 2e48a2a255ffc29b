// Uploaded bytes go straight to a file while their size and sha256 are computed on the way:
// memory stays flat whatever the file size.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';

export interface Digest {
  size: number;
  sha256: string;
}

/** A pass-through stream that counts and hashes what flows through it. */
export function digestTap(): { tap: Transform; digest: () => Digest } {
  const hash = createHash('sha256');
  let size = 0;
  let hex: string | undefined;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return {
    tap,
    digest: () => {
      hex ??= hash.digest('hex');
      return { size, sha256: hex };
    },
  };
}

export type RawOutcome =
  | { kind: 'ok'; digest: Digest }
  | { kind: 'too-large' }
  | { kind: 'aborted' }
  | { kind: 'write-failed'; message: string };

/**
 * Streams a raw request body to `path`. Stops as soon as more than `maxBytes` arrived; the
 * request is then left paused for the caller to answer and discard the rest.
 */
export function receiveRawBody(
  req: IncomingMessage,
  path: string,
  maxBytes: number,
): Promise<RawOutcome> {
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  let size = 0;
  let settled = false;
  return new Promise((resolve) => {
    const settle = (outcome: RawOutcome, keep: boolean): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      if (keep) {
        resolve(outcome);
        return;
      }
      req.pause();
      out.destroy();
      void rm(path, { force: true }).then(() => resolve(outcome));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        settle({ kind: 'too-large' }, false);
        return;
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        req.pause();
        out.once('drain', () => {
          if (!settled) req.resume();
        });
      }
    };
    const onEnd = (): void => {
      req.off('close', onClose);
      out.end(() => settle({ kind: 'ok', digest: { size, sha256: hash.digest('hex') } }, true));
    };
    const onClose = (): void => {
      if (!req.complete) settle({ kind: 'aborted' }, false);
    };
    out.on('error', (err) => settle({ kind: 'write-failed', message: err.message }, false));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.resume();
  });
}
