// While another command holds the queue (issue 36, point 10): `trayshare queue` and `trayshare
// history` are views, so they show the saved state read-only, saying it may be a moment old,
// instead of waiting and then exiting 1. And a lock file's freshness counts only for the lock
// format that is kept fresh: a pid-only lock from an older version, touched just now, does not
// make an unrelated process with that pid a "trayshare" holder, and TRAYSHARE_LOCK_WAIT holds.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireQueueLock, LOCK_FILE } from '../../main/core/queue/queue-lock';
import { runCli } from './run-cli';

let dir: string;
let queueDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-lock-readonly-'));
  const state = join(dir, 'data', 'cli-state');
  queueDir = join(state, 'queue');
  await mkdir(queueDir, { recursive: true });
  await mkdir(join(state, 'history'), { recursive: true });
  // One finished upload in the CLI's history, as a send writes it.
  await writeFile(
    join(state, 'history', 'history.jsonl'),
    `${JSON.stringify({
      id: 'item-1.1',
      at: Date.UTC(2026, 10, 28, 9, 0, 0),
      workspaceId: 'w1',
      workspaceName: 'Acme',
      channels: ['C0GENERAL'],
      comment: '',
      path: '/tmp/report.pdf',
      name: 'report.pdf',
      size: 2048,
      outcome: 'delivered',
      permalink: 'https://acme.example/files/F1',
    })}\n`,
  );
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_LOCK_WAIT: '1' };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('while another command holds the queue', () => {
  it('`history` and `queue` show the saved state read-only, at once, and say it may be a moment old', async () => {
    // This test process holds the lock, as a running `trayshare send` would.
    const lock = await acquireQueueLock(queueDir);
    try {
      const history = await runCli(['history'], { env, timeoutMs: 15_000 });
      expect(history.code).toBe(0);
      expect(history.stderr).toContain(
        `Another trayshare command (pid ${process.pid}) is using the upload queue: this is what it last saved, read-only, and it may be a moment old.`,
      );
      expect(history.stderr).not.toContain('Waiting for');
      expect(history.stdout).toMatch(
        /^2026-11-28 09:00:00\tdelivered\treport\.pdf \(2\.0 KB\)\tAcme: C0GENERAL\thttps:\/\/acme\.example\/files\/F1\n$/,
      );
      const queue = await runCli(['queue', '--json'], { env, timeoutMs: 15_000 });
      expect(queue.code).toBe(0);
      expect(queue.stdout).toBe('[]\n');
      expect(queue.stderr).toContain('it may be a moment old');
    } finally {
      await lock.release();
    }
  });

  it('a pid-only lock from an older version, touched just now, is not taken for a trayshare holder', async () => {
    let other: ChildProcess | undefined;
    try {
      // An unrelated program has the pid; the old version wrote just the pid, and never
      // touches its lock: a recent mtime (a copy, a restore, a clock change) says nothing.
      other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
      const pid = other.pid as number;
      await writeFile(join(queueDir, LOCK_FILE), `${pid}\n`);
      const started = Date.now();
      const run = await runCli(['queue', '--run'], { env, timeoutMs: 20_000 });
      expect(run.stderr).toContain(`Gave up waiting: process ${pid} has held the upload queue`);
      expect(run.stderr).not.toContain(`trayshare (pid ${pid})`);
      expect(run.code).toBe(1);
      // TRAYSHARE_LOCK_WAIT (1 s) held, not the 35 s a fresh lock file used to buy.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      other?.kill();
      await rm(join(queueDir, LOCK_FILE), { force: true });
    }
  });
});
