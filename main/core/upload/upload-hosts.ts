// The upload hosts learnt by earlier processes, for the CLI: `trayshare send` is a fresh process
// each time, so what preconnect.ts learnt in the last one (Slack's files.slack.com for
// slack.com) would be lost, and each send's byte uploads would pay a TCP and a TLS set-up to
// that host after step 1. A small file in the data folder keeps, per API origin, the upload
// origin its service last gave: origins only (scheme, host and port), never an upload
// address's path, which is a secret. Read at the CLI's entry with one synchronous read (before
// anything else loads: send-early.ts), written after a send only when it learnt something new.
// A missing, unreadable or malformed file is an empty one: nothing depends on it.
//
// What it may hold is narrow, as it is read at every send and another program could have
// written it: an upload origin is kept, and read back, only when it is https on port 443
// (keptUploadOrigin, a loopback host aside); the file is the person's alone (mode 0600, as the
// settings are), an older file's wider mode narrowed when it is next written or found.
import { createRequire } from 'node:module';
import { keptUploadOrigin, knownUploadHosts, learnUploadHost } from './preconnect';

/** API origins the file keeps, at most. */
const MOST_KEPT = 32;

/** Read and write for the person only. */
const PRIVATE_MODE = 0o600;

/** The file's name in the data folder. */
export const UPLOAD_HOSTS_FILE = 'upload-hosts.json';

// node:fs with `require`, as preconnect.ts takes node:net: the CLI's entry imports this module.
const require = createRequire(import.meta.url);
const fs = () => require('node:fs') as typeof import('node:fs');

const isOrigin = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === value;
  } catch {
    return false;
  }
};

/** What `file` holds, as [API origin, upload origin] pairs; [] when it holds nothing usable. */
function readPairs(file: string): [string, string][] {
  try {
    const parsed: unknown = JSON.parse(fs().readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
    return Object.entries(parsed).filter(
      (p): p is [string, string] =>
        isOrigin(p[0]) && typeof p[1] === 'string' && keptUploadOrigin(p[1]) === p[1],
    );
  } catch {
    return [];
  }
}

/** Teaches preconnect.ts the upload hosts `file` remembers. */
export function recallUploadHosts(file: string): void {
  for (const [api, upload] of readPairs(file)) learnUploadHost(api, upload);
}

/**
 * Writes what this process knows to `file` when that differs from what it holds (a temporary
 * file renamed over it, so a reader never sees half). Errors are ignored: it is only a hint.
 */
export function keepUploadHosts(file: string): void {
  narrowMode(file);
  const known = knownUploadHosts();
  if (Object.keys(known).length === 0) return;
  const held = Object.fromEntries(readPairs(file));
  if (Object.entries(known).every(([api, upload]) => held[api] === upload)) return;
  try {
    const temp = `${file}.${process.pid}.tmp`;
    // The newest last; at most MOST_KEPT API origins.
    const merged = Object.entries({ ...held, ...known }).slice(-MOST_KEPT);
    // Created 0600 (a mode only applies to a new file: the temporary one, renamed over the old).
    fs().writeFileSync(temp, `${JSON.stringify(Object.fromEntries(merged), null, 2)}\n`, {
      mode: PRIVATE_MODE,
    });
    narrowMode(temp);
    fs().renameSync(temp, file);
  } catch {
    // A read-only or missing data folder: the next send learns the host again.
  }
}

/** A file others may read (written before it was kept private, a leftover) becomes 0600. */
function narrowMode(file: string): void {
  // Windows has no such mode bits: Node's chmod there sets only the write permission
  // (https://nodejs.org/api/fs.html#file-modes).
  if (process.platform === 'win32') return;
  try {
    if ((fs().statSync(file).mode & 0o777) !== PRIVATE_MODE) fs().chmodSync(file, PRIVATE_MODE);
  } catch {
    // Gone or not ours: nothing to narrow.
  }
}
