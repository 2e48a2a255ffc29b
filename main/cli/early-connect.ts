// `trayshare send --base-url https://… FILE…` opens its connections to the service before it loads
// the rest of the CLI (core/upload/preconnect.ts): on a real link the TCP and TLS set-up, two
// round trips, then run while Node loads modules, reads the settings and checks the files,
// instead of after (bench/notes.md, issue 38). Read from the raw arguments, before commander
// is loaded; anything unexpected opens nothing, and the command itself checks every argument
// as before. With --protocol external, one connection per file named (a share's step-1
// requests go at once), at most 10; with files.upload one (its first file goes alone).
import { createRequire } from 'node:module';
import { preconnect } from '../core/upload/preconnect';

/** Options of `send` that take a value: their values are not files. */
const VALUE_OPTIONS = new Set([
  '--base-url',
  '--channels',
  '--comment',
  '--preset',
  '--workspace',
  '--protocol',
  '--max-wait',
  '--thread',
  '--filename',
]);

// node:fs with `require`: an ES module import of a builtin at the CLI's entry made a 256 MiB
// send peak ~6 MB higher (measured, bench/notes.md); `require` returns the module as it is.
const fs = () => createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

export function connectEarly(args: readonly string[]): void {
  if (args[0] !== 'send') return;
  let base: string | undefined;
  let files = 0;
  let external = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--base-url=')) base = arg.slice('--base-url='.length);
    else if (arg === '--base-url') base = args[i + 1];
    if (arg === '--protocol=external' || (arg === '--protocol' && args[i + 1] === 'external')) {
      external = true;
    }
    if (VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith('-') && files < 10 && isFile(arg)) files++;
  }
  if (base === undefined || files === 0) return;
  let url: URL;
  try {
    url = new URL(base.trim());
  } catch {
    return;
  }
  // https only: a TLS set-up is the round trips worth hiding. Plain http may only go to this
  // computer (checkBaseUrl), where a connection costs nothing to open and nothing is gained.
  if (url.protocol !== 'https:') return;
  preconnect(url.href, external ? files : 1);
}

function isFile(path: string): boolean {
  try {
    return fs().statSync(path).isFile();
  } catch {
    return false;
  }
}
