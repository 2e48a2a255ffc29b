// One process at a time works a queue folder: two would both replay the journal and send the
// same items twice. The lock file holds the owner's pid; a lock whose process is gone (a crash,
// a SIGKILL) is taken over.
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'queue.lock';

export class QueueLockedError extends Error {
  readonly pid: number;
  constructor(dir: string, pid: number) {
    super(
      `Another Trayshare process (pid ${pid}) is using the upload queue in ${dir}. Quit it, or let it do the upload.`,
    );
    this.name = 'QueueLockedError';
    this.pid = pid;
  }
}

// Lock files this process holds, so a second open in the same process is refused too.
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerPid(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface QueueLock {
  release(): Promise<void>;
}

export async function acquireQueueLock(dir: string): Promise<QueueLock> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      try {
        await fh.writeFile(String(process.pid));
      } finally {
        await fh.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
      const pid = await ownerPid(path);
      const ours = pid === process.pid;
      if (pid !== undefined && ((ours && held.has(path)) || (!ours && alive(pid)))) {
        throw new QueueLockedError(dir, pid);
      }
      if (pid === undefined && attempt === 0) {
        // Its owner may have created it and not yet written its pid.
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      // Stale: its process is gone, it was copied along with the folder, or it is empty.
      await unlink(path).catch(() => {});
    }
  }
  held.add(path);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      held.delete(path);
      await unlink(path).catch(() => {});
    },
  };
}
