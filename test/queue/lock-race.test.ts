// The queue lock with real processes (issue 15, item 3): many processes started at once on a
// stale lock, exactly one holds it; a lock whose pid now belongs to an unrelated process is
// taken over, while a live owner is still refused.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireQueueLock, LOCK_FILE, startTimeOf } from '../../main/core/queue/queue-lock';

const RACER = resolve('test/queue/lock-racer.ts');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-lock-race-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function deadPid(): string {
  return spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
    encoding: 'utf8',
  }).stdout.trim();
}

async function race(count: number): Promise<string[]> {
  const go = join(dir, 'go');
  const end = join(dir, 'end');
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const done: Promise<string>[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ['--import', 'tsx', RACER, join(dir, 'q'), go, end], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    ready.push(
      new Promise((r) =>
        child.stdout?.on('data', (d) => {
          out += d;
          if (out.includes('ready')) r();
        }),
      ),
    );
    done.push(new Promise((r) => child.on('close', () => r(out.replace('ready\n', '').trim()))));
  }
  await Promise.all(ready);
  await writeFile(go, '');
  // The holder keeps the lock until all the others have given up; two holders at once would
  // leave fewer than count - 1 to give up, and the wait ends on its bound instead.
  let closed = 0;
  for (const d of done) void d.then(() => closed++);
  for (let waited = 0; closed < count - 1 && waited < 60_000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await writeFile(end, '');
  return Promise.all(done);
}

describe.skipIf(process.platform === 'win32')('queue lock across processes', () => {
  it.each([1, 2, 3])(
    'trial %i: 12 processes started at once on a stale lock: exactly one holds it',
    async () => {
      const q = join(dir, 'q');
      await (await import('node:fs/promises')).mkdir(q);
      await writeFile(join(q, LOCK_FILE), deadPid());
      const results = await race(12);
      expect(results.sort()).toEqual(['held', ...Array(11).fill('locked')]);
    },
    120_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'a stale lock whose pid now belongs to an unrelated process is taken over; its real owner is not',
    async () => {
      const unrelated = spawn('sleep', ['60']);
      try {
        const pid = unrelated.pid as number;
        const start = startTimeOf(pid);
        expect(start).toBeDefined();
        // The lock's owner had this pid once, and started at another time: the pid was reused.
        await writeFile(join(dir, LOCK_FILE), `${pid} ${Number(start) - 1}`);
        const lock = await acquireQueueLock(dir);
        await lock.release();
        // The same pid with its real start time is a live owner.
        await writeFile(join(dir, LOCK_FILE), `${pid} ${start}`);
        await expect(acquireQueueLock(dir)).rejects.toThrow(`pid ${pid}`);
      } finally {
        unrelated.kill();
      }
    },
  );
});
