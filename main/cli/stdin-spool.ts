// `-` as FILE: standard input is written to a private temporary file first, so the upload has
// an exact length (no chunked body) and can be retried or resumed like any other file. The copy
// is capped at the largest file the workspace takes (a pipe from /dev/zero must not fill the
// temp folder), and it is removed whatever happens, Ctrl-C included.
import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from './terminal';
import { UsageError } from './usage-error';

export interface Spooled {
  path: string;
  remove(): Promise<void>;
}

// Most file systems (ext4, APFS, NTFS) allow 255 bytes in one name.
const MAX_NAME_BYTES = 255;

/** --filename names one file: checked before anything is created. */
export function checkStdinFilename(filename: string): void {
  const example = 'for example --filename notes.txt';
  if (filename === '' || filename === '.' || filename === '..') {
    throw new UsageError(`--filename must name a file, ${example}.`);
  }
  if (/[/\\]/.test(filename)) {
    throw new UsageError(`--filename is a file name, not a path (no "/" or "\\"), ${example}.`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(filename)) {
    throw new UsageError('--filename cannot hold control characters (tabs, new lines, escapes).');
  }
  const bytes = Buffer.byteLength(filename);
  if (bytes > MAX_NAME_BYTES) {
    throw new UsageError(
      `--filename is too long (${bytes} bytes; file names take at most ${MAX_NAME_BYTES}).`,
    );
  }
}

class StdinTooLargeError extends Error {
  override name = 'StdinTooLargeError';
}

function capAt(maxBytes: number, where: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) {
        done(
          new StdinTooLargeError(
            `Standard input is larger than ${formatBytes(maxBytes)}, the largest file ${where} takes: nothing was sent. Send a smaller input, or compress it first.`,
          ),
        );
        return;
      }
      done(null, chunk);
    },
  });
}

export async function spoolStdin(
  filename: string,
  limit: { maxBytes: number; where: string },
  input: NodeJS.ReadableStream = process.stdin,
): Promise<Spooled> {
  checkStdinFilename(filename);
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-stdin-'));
  // Ctrl-C while the copy is written (or while it uploads) must not leave it behind.
  const removeNow = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeNow);
  const remove = async () => {
    process.off('exit', removeNow);
    await rm(dir, { recursive: true, force: true });
  };
  const path = join(dir, filename);
  const interrupted = () => {
    removeNow();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    await pipeline(
      input,
      capAt(limit.maxBytes, limit.where),
      createWriteStream(path, { mode: 0o600 }),
    );
  } catch (error) {
    process.off('SIGINT', interrupted);
    await remove();
    if (error instanceof StdinTooLargeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      `Could not copy standard input to ${dir} (${code ?? (error as Error).message}). ${code === 'ENOSPC' ? 'The temporary folder is full: free space there, or set TMPDIR to a folder with room.' : 'Set TMPDIR to a writable folder and try again.'}`,
      { cause: error },
    );
  }
  process.off('SIGINT', interrupted);
  return { path, remove };
}
