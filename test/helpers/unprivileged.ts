// Runs a check as an unprivileged user where root would change its outcome: root reads a file
// whose mode is 0o000, so "refuses a file it may not read" is only meaningful as someone else.
// CI runs as root; there the effective user and group become nobody (65534) for the duration of
// `fn` and are restored after (the real user stays root, which is what allows the way back).
// Linux applies seteuid to every thread, so libuv's file-system threads act as nobody too.
// On Windows a mode of 0o000 does not stop reading; callers skip there.
import { chmod } from 'node:fs/promises';

const NOBODY = 65534;

/** True when running as root on POSIX: `asUnprivileged` switches users. */
const runningAsRoot = process.getuid?.() === 0;

/**
 * Runs `fn` as a user without root's privileges. `dirs` are the folders nobody must be able to
 * pass through to reach the file (a private mkdtemp folder is 0o700); they are opened to 0o755
 * while `fn` runs as nobody.
 */
export async function asUnprivileged<T>(dirs: string[], fn: () => Promise<T>): Promise<T> {
  if (!runningAsRoot) return fn();
  if (!process.seteuid || !process.setegid)
    throw new Error('running as root without seteuid: cannot check as an unprivileged user');
  for (const dir of dirs) await chmod(dir, 0o755);
  process.setegid(NOBODY);
  process.seteuid(NOBODY);
  try {
    return await fn();
  } finally {
    process.seteuid(0);
    process.setegid(0);
  }
}
