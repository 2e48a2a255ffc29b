// What `trayshare send` does before it loads the rest of the CLI, read from the raw arguments.
//
// The optimizer cap (optimizer-cap.ts) goes on here for a send of several files or a long one,
// where it went on just before the upload: Node's start-up itself (module resolution's path
// calls) can make a function hot enough for TurboFan, whose compiler then faults in about 5 MB of
// the node binary's code, so a send's peak memory moved by 5 MB with any change to the entry
// (bench/notes.md, issue 38). The same sends pay for it as before (loading node:v8).
//
// And `trayshare send --base-url https://… FILE…` opens its connections to the service then
// too (core/upload/preconnect.ts): on a real link the TCP and TLS set-up, two
// round trips, then run while Node loads modules, reads the settings and checks the files,
// instead of after (bench/notes.md, issue 38). Read from the raw arguments, before commander
// is loaded; anything unexpected opens nothing, and the command itself checks every argument
// as before. With --protocol external, one connection per file named (a share's step-1
// requests go at once), at most 10, and as many to the upload host an earlier send learnt
// (Slack's is another host: core/upload/upload-hosts.ts); with files.upload one (its first
// file goes alone).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defaultUserDataDir } from '../core/paths';
import { preconnect, shareOrigins } from '../core/upload/preconnect';
import { recallUploadHosts, UPLOAD_HOSTS_FILE } from '../core/upload/upload-hosts';
import { capOptimizer, LONG_FILE_BYTES } from './optimizer-cap';

/** Options of `send` that take a value: their values are not files (flags such as --json and
 * --keep-metadata take none, so they are skipped as options). */
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

// node:fs with `require`, as node-http.ts takes node:http: the entry builds no ES module view of it.
const fs = () => createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

/** Returns whether it opened connections. */
export function beforeSend(args: readonly string[]): boolean {
  if (args[0] !== 'send') return false;
  let base: string | undefined;
  let files = 0;
  let long = false;
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
    const size = arg.startsWith('-') || files >= 10 ? -1 : fileSize(arg);
    if (size < 0) continue;
    files++;
    if (size >= LONG_FILE_BYTES) long = true;
  }
  if (files > 1 || long) capOptimizer();
  if (base === undefined || files === 0) return false;
  let url: URL;
  try {
    url = new URL(base.trim());
  } catch {
    return false;
  }
  // https only: a TLS set-up is the round trips worth hiding. Plain http may only go to this
  // computer (checkBaseUrl), where a connection costs nothing to open and nothing is gained.
  if (url.protocol !== 'https:') return false;
  if (!external) {
    preconnect(url.href, 1);
    return true;
  }
  // The upload host an earlier send learnt for this service too (core/upload/upload-hosts.ts).
  recallUploadHosts(join(defaultUserDataDir(), UPLOAD_HOSTS_FILE));
  for (const origin of shareOrigins(url.href)) preconnect(origin, files);
  return true;
}

/** The size of a file named on the command line, or -1 for anything else. */
function fileSize(path: string): number {
  try {
    const st = fs().statSync(path);
    return st.isFile() ? st.size : -1;
  } catch {
    return -1;
  }
}
