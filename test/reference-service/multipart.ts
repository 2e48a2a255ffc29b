// multipart/form-data, parsed as it streams by busboy: text parts are collected, the one file
// part that matters is written to disk through a digest tap, any other file part is skipped.

import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { type Digest, digestTap } from './disk-sink';
import { boundaryOf, partFilenameRewriter } from './part-filename';

interface ReceivedFile extends Digest {
  path: string;
  fieldName: string;
  /** The file name from the part's Content-Disposition ('' when it had none). */
  filename: string;
  mimeType: string;
}

export type MultipartOutcome =
  | { kind: 'ok'; fields: Map<string, string>; file: ReceivedFile | null }
  | { kind: 'too-large' }
  | { kind: 'invalid'; message: string }
  | { kind: 'aborted' };

export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
}

export interface MultipartOptions {
  /** The file part to keep; without this, every file part is skipped. */
  file?: {
    /** Where its bytes are written. */
    path: string;
    maxBytes: number;
    /** The first file part whose field name passes this is kept. */
    wanted: (fieldName: string) => boolean;
  };
  /** Text parts are small; larger ones make the form invalid. */
  maxFieldBytes?: number;
}

/**
 * Reads the whole form. On 'too-large', 'invalid' or 'aborted' the partial file is deleted and
 * the request is left unpiped, so the caller can answer and discard the rest of the body.
 */
export function receiveMultipart(
  req: IncomingMessage,
  opts: MultipartOptions,
): Promise<MultipartOutcome> {
  let parser: busboy.Busboy;
  const boundary = boundaryOf(req.headers['content-type']);
  const rewriter = boundary ? partFilenameRewriter(boundary) : undefined;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send raw UTF-8 file names; busboy's default would read them as Latin-1.
      defParamCharset: 'utf8',
      // Names are kept whole, backslashes and all, as Slack keeps them.
      preservePath: true,
      limits: {
        // busboy signals 'limit' on reaching the size, so one byte more means "over the limit".
        fileSize: (opts.file?.maxBytes ?? 0) + 1,
        fieldSize: opts.maxFieldBytes ?? 1024 * 1024,
        fields: 100,
        parts: 200,
      },
    });
  } catch (err) {
    return Promise.resolve({ kind: 'invalid', message: (err as Error).message });
  }

  return new Promise((resolve) => {
    const fields = new Map<string, string>();
    let settled = false;
    let kept: { stream: Readable; sink: ReturnType<typeof createWriteStream> } | undefined;
    let fileDone: Promise<ReceivedFile | null> = Promise.resolve(null);

    const fail = (outcome: Exclude<MultipartOutcome, { kind: 'ok' }>): void => {
      if (settled) return;
      settled = true;
      if (rewriter) {
        req.unpipe(rewriter);
        rewriter.unpipe(parser);
      } else {
        req.unpipe(parser);
      }
      req.pause();
      // Deferred: this may run inside a busboy callback that still uses its streams.
      setImmediate(() => {
        kept?.stream.destroy();
        kept?.sink.destroy();
        parser.destroy();
        if (!opts.file) resolve(outcome);
        else void rm(opts.file.path, { force: true }).then(() => resolve(outcome));
      });
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        fail({ kind: 'invalid', message: `form field ${name} is too long` });
        return;
      }
      if (!fields.has(name)) fields.set(name, value);
    });

    parser.on('file', (name, stream, info) => {
      const wanted = opts.file;
      if (kept || !wanted?.wanted(name)) {
        stream.resume();
        return;
      }
      const sink = createWriteStream(wanted.path);
      const { tap, digest } = digestTap();
      kept = { stream, sink };
      stream.once('limit', () => fail({ kind: 'too-large' }));
      fileDone = pipeline(stream, tap, sink).then(() => ({
        ...digest(),
        path: wanted.path,
        fieldName: name,
        filename: info.filename ?? '',
        mimeType: info.mimeType,
      }));
      // Observed here so a failure while the rest of the form is parsed is not unhandled.
      fileDone.catch(() => {});
    });

    parser.on('error', (err: Error) => fail({ kind: 'invalid', message: err.message }));

    parser.on('close', () => {
      fileDone.then(
        (file) => {
          if (settled) return;
          settled = true;
          resolve({ kind: 'ok', fields, file });
        },
        (err: Error) => fail({ kind: 'invalid', message: err.message }),
      );
    });

    req.once('close', () => {
      if (!req.complete) fail({ kind: 'aborted' });
    });
    if (rewriter) req.pipe(rewriter).pipe(parser);
    else req.pipe(parser);
  });
}
