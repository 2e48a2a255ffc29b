import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireQueueLock, LOCK_FILE, QueueLockedError } from './queue-lock';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-lock-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('queue lock', () => {
  it('is held by one opener at a time and released on close', async () => {
    const lock = await acquireQueueLock(dir);
    expect((await readFile(join(dir, LOCK_FILE), 'utf8')).split(' ')[0]).toBe(String(process.pid));
    await expect(acquireQueueLock(dir)).rejects.toBeInstanceOf(QueueLockedError);
    await lock.release();
    const again = await acquireQueueLock(dir);
    await again.release();
  });

  it('refuses while another live process holds it', async () => {
    // The parent of this test process is alive for as long as the test runs.
    await writeFile(join(dir, LOCK_FILE), String(process.ppid));
    await expect(acquireQueueLock(dir)).rejects.toThrow(/Another Trayshare process/);
  });

  it('takes over the lock of a process that is gone (killed, crashed)', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    await writeFile(join(dir, LOCK_FILE), gone.stdout.trim());
    const lock = await acquireQueueLock(dir);
    expect((await readFile(join(dir, LOCK_FILE), 'utf8')).split(' ')[0]).toBe(String(process.pid));
    await lock.release();
  });
});
