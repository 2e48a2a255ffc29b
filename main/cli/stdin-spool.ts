// `-` as FILE: standard input is written to a private temporary file first, so the upload has
// an exact length (no chunked body) and can be retried or resumed like any other file.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export interface Spooled {
  path: string;
  remove(): Promise<void>;
}

export async function spoolStdin(filename: string): Promise<Spooled> {
  const name = basename(filename);
  if (name === '' || name === '.' || name === '..') {
    throw new Error('--filename must name a file, for example --filename notes.txt');
  }
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-stdin-'));
  const path = join(dir, name);
  await pipeline(process.stdin, createWriteStream(path, { mode: 0o600 }));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
