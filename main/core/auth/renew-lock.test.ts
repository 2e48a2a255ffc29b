// The renewal lock on real files: a crash's lock is taken over, a live holder is waited for.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withRenewLock } from './renew-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-renew-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has ended: the kind of holder a crash leaves. */
async function goneProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

it('takes over a lock whose holder is gone (a crash mid-renewal), and removes its own', async () => {
  await writeFile(join(dir, 'renew-w1.lock'), `${await goneProcess()} ${Date.now()}`);
  expect(await withRenewLock(dir, 'w1', async () => 'renewed')).toBe('renewed');
  expect(await readdir(dir)).toEqual([]);
});

it.each([
  ['a live holder', () => `${process.pid} ${Date.now()}`],
  // Its holder has created the file but not yet written its pid.
  ['a lock still empty', () => ''],
])('waits for %s, then runs', async (_name, content) => {
  const path = join(dir, 'renew-w1.lock');
  await writeFile(path, content());
  const order: string[] = [];
  const waiting = withRenewLock(dir, 'w1', async () => {
    order.push('second');
  });
  await new Promise((r) => setTimeout(r, 200));
  order.push('first done');
  await unlink(path);
  await waiting;
  expect(order).toEqual(['first done', 'second']);
});

it('runs one at a time within a process too', async () => {
  let inside = 0;
  let most = 0;
  await Promise.all(
    [1, 2, 3].map(() =>
      withRenewLock(dir, 'w1', async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 20));
        inside -= 1;
      }),
    ),
  );
  expect(most).toBe(1);
});

it('takes over an empty lock older than any renewal (its holder died before writing)', async () => {
  const path = join(dir, 'renew-w1.lock');
  await writeFile(path, '');
  const longAgo = new Date(Date.now() - 10 * 60_000);
  await utimes(path, longAgo, longAgo);
  expect(await withRenewLock(dir, 'w1', async () => 'renewed')).toBe('renewed');
  expect(await readdir(dir)).toEqual([]);
});
