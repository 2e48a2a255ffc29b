import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIdentity, type ProcessProbe, processProbe } from './process-identity';
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

/** A boot an hour before this one, as a lock left by a crash before a reboot would say. */
function previousBoot(): string {
  return `t:${Date.now() - uptime() * 1000 - 3_600_000}`;
}

async function lockedBy(probe: ProcessProbe): Promise<QueueLockedError> {
  const error = await acquireQueueLock(dir, { probe }).then(
    async (lock) => {
      await lock.release();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QueueLockedError);
  return error as QueueLockedError;
}

async function takenOver(probe: ProcessProbe): Promise<void> {
  const lock = await acquireQueueLock(dir, { probe });
  expect((await readFile(join(dir, LOCK_FILE), 'utf8')).split(' ')[0]).toBe(String(process.pid));
  await lock.release();
}

// macOS and Windows have no /proc: the probe is pointed at a folder that does not exist.
describe.each([
  ['macOS', 'darwin'],
  ['Windows', 'win32'],
] as const)('queue lock as %s sees it (no /proc)', (_os, platform) => {
  const probe = () => processProbe({ procRoot: join(dir, 'no-proc'), platform });

  it('a lock left before a reboot is taken over, although its pid is in use again', async () => {
    // The parent of this test process is alive: after a reboot, another program got the pid.
    await writeFile(
      join(dir, LOCK_FILE),
      formatIdentity({ pid: process.ppid, boot: previousBoot(), since: Date.now() - 3_700_000 }),
    );
    await takenOver(probe());
  });

  it('a lock this process wrote names the boot it was taken in', async () => {
    const lock = await acquireQueueLock(dir, { probe: probe() });
    const [pid, , boot] = (await readFile(join(dir, LOCK_FILE), 'utf8')).split(' ');
    expect(pid).toBe(String(process.pid));
    expect(boot).toBe(probe().boot());
    expect(boot).toMatch(/^t:\d+$/);
    await lock.release();
  });

  it('the lock of a process that is gone is taken over', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
      encoding: 'utf8',
    });
    const pid = Number(gone.stdout.trim());
    await writeFile(join(dir, LOCK_FILE), formatIdentity({ pid, boot: probe().boot() }));
    await takenOver(probe());
  });
});

describe('queue lock as macOS sees it: the start time from ps', () => {
  const probe = () => processProbe({ procRoot: join(dir, 'no-proc'), platform: 'darwin' });

  it.skipIf(process.platform === 'win32')(
    'a pid reused by an unrelated process in this boot is taken over; the real owner is refused',
    async () => {
      const unrelated = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
      try {
        const pid = unrelated.pid as number;
        const start = probe().startTime(pid);
        expect(start).toMatch(/\d{2}:\d{2}:\d{2}/);
        const boot = probe().boot();
        await writeFile(
          join(dir, LOCK_FILE),
          formatIdentity({ pid, start: 'Mon_Jan__1_00:00:00_2024', boot }),
        );
        await takenOver(probe());
        await writeFile(join(dir, LOCK_FILE), formatIdentity({ pid, start, boot }));
        const refused = await lockedBy(probe());
        expect(refused.pid).toBe(pid);
        expect(refused.confirmed).toBe(true);
      } finally {
        unrelated.kill();
      }
    },
  );
});

describe('queue lock as Windows sees it: no start time', () => {
  const probe = () => processProbe({ procRoot: join(dir, 'no-proc'), platform: 'win32' });

  it('a holder that keeps its lock fresh is confirmed', async () => {
    const holder = await acquireQueueLock(dir, { probe: probe() });
    // Another process (as far as the lock can tell: the same lock file, another pid) looks.
    const text = await readFile(join(dir, LOCK_FILE), 'utf8');
    await holder.release();
    await writeFile(join(dir, LOCK_FILE), text.replace(/^\d+/, String(process.ppid)));
    const refused = await lockedBy(probe());
    expect(refused.confirmed).toBe(true);
  });

  it('a live pid from this boot whose lock is not kept fresh: refused, and said to be unconfirmed', async () => {
    const since = Date.now() - 60_000;
    const path = join(dir, LOCK_FILE);
    await writeFile(path, formatIdentity({ pid: process.ppid, boot: probe().boot(), since }));
    // Not touched for two minutes: the holder crashed, or it is an older version.
    const old = new Date(Date.now() - 120_000);
    await utimes(path, old, old);
    const refused = await lockedBy(probe());
    expect(refused.pid).toBe(process.ppid);
    expect(refused.confirmed).toBe(false);
    expect(refused.since).toBe(since);
    expect(refused.lockPath).toBe(join(dir, LOCK_FILE));
  });
});

describe.skipIf(process.platform !== 'linux')('queue lock on Linux: the boot id', () => {
  it('a lock from another boot is taken over, although its pid is in use again', async () => {
    await writeFile(
      join(dir, LOCK_FILE),
      formatIdentity({ pid: process.ppid, boot: 'id:00000000-0000-0000-0000-000000000000' }),
    );
    await takenOver(processProbe());
  });
});
