// The CLI's wait for another command that holds the queue (issue 27, items 1 and 15): a holder
// the system cannot confirm (as on Windows, where no start time is known) is waited for only up
// to a bound, then the command names the process and how to end the wait; a confirmed holder is
// waited for until it is done. Commands that send wait (`queue --run` here); `queue` and `history`
// only look, and show the saved state instead (lock-readonly.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIdentity, processProbe } from '../../main/core/queue/process-identity';
import { acquireQueueLock, LOCK_FILE } from '../../main/core/queue/queue-lock';
import { CLI } from './run-cli';

let dir: string;
let queueDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-lock-wait-'));
  queueDir = join(dir, 'data', 'cli-state', 'queue');
  await mkdir(queueDir, { recursive: true });
  env = { ...process.env, TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_LOCK_WAIT: '1' };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; `onStderr` sees its error output as it comes. */
function run(args: string[], onStderr?: (all: string) => void) {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('waiting for another trayshare command', () => {
  it('a holder that cannot be confirmed: gives up after the bound, names the process and the lock file', async () => {
    // A lock as Windows writes it (no start time), left by a holder that stopped touching it,
    // and a pid that is in use in this boot.
    let other: ChildProcess | undefined;
    try {
      other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
      const pid = other.pid as number;
      const lockPath = join(queueDir, LOCK_FILE);
      await writeFile(
        lockPath,
        formatIdentity({ pid, boot: processProbe().boot(), since: Date.now() - 120_000 }),
      );
      // Not kept fresh by its holder, as after a crash.
      const old = new Date(Date.now() - 120_000);
      await utimes(lockPath, old, old);
      const waited = await run(['queue', '--run']);
      expect(waited.stderr).toContain(`Waiting for another trayshare command (pid ${pid})`);
      expect(waited.stderr).toContain(`Gave up waiting: process ${pid} has held the upload queue`);
      expect(waited.stderr).toContain(`if it is not, delete ${lockPath} and run the command again`);
      expect(waited.code).toBe(1);

      await rm(lockPath);
      const after = await run(['queue', '--run']);
      expect(after.stderr).toContain('The queue is empty.');
      expect(after.code).toBe(0);
    } finally {
      other?.kill();
    }
  });

  // Confirmed by its start time on Linux and macOS, by its heartbeat on the lock file on Windows.
  it('a confirmed holder is waited for past the bound, with a word on how to stop waiting', async () => {
    // This test process holds the lock, as a running `trayshare send` would.
    const lock = await acquireQueueLock(queueDir);
    let released = false;
    const waited = await run(['queue', '--run'], (stderr) => {
      if (!released && stderr.includes('Still waiting')) {
        released = true;
        void lock.release();
      }
    });
    expect(waited.stderr).toContain(`Still waiting: trayshare (pid ${process.pid})`);
    expect(waited.stderr).toContain('Press Ctrl+C to stop waiting');
    expect(waited.stderr).toContain('The queue is empty.');
    expect(waited.code).toBe(0);
  });
});
