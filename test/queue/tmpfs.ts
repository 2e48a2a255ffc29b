// A small tmpfs to fill, for the full-disk tests. Mounting needs root on Linux; elsewhere, or
// when the mount is refused, `tmpfsOrSkipReason` says why and the test skips with that reason.
import { execFileSync } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Fills the disk to its last byte with `filler` (returns when a write is refused). */
  fill(): Promise<void>;
  /** Frees what fill() took. */
  free(): Promise<void>;
  unmount(): void;
}

/** Mounts a tmpfs of `size` (e.g. "2m") at `dir`, or returns why it cannot. */
export async function tmpfsOrSkipReason(dir: string, size: string): Promise<Tmpfs | string> {
  if (process.platform !== 'linux') return 'a small full disk is made with a Linux tmpfs';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  await mkdir(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return `mount -t tmpfs was refused (${(error as Error).message.split('\n')[0]})`;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    async fill() {
      const fh = await open(filler, 'a');
      try {
        const chunk = Buffer.alloc(4096, 1);
        for (;;) await fh.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await fh.close();
      }
      // The last page may still take a few bytes: take them too.
      const tail = await open(filler, 'a');
      try {
        for (;;) await tail.write(Buffer.alloc(1, 1));
      } catch {
        // full
      } finally {
        await tail.close();
      }
    },
    async free() {
      await rm(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    },
  };
}
