// Read-only and full disks (issue 15, item 5), on a real tmpfs: the CLI names the folder and
// says what to do instead of printing a raw EROFS / ENOSPC. Needs root to mount; skipped when
// mounting is not permitted.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

let dir: string;
let mnt: string;
let mounted = false;

function mount(options: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mnt], { stdio: 'ignore' });
  mounted = true;
}

function unmount(): void {
  if (mounted) execFileSync('umount', [mnt], { stdio: 'ignore' });
  mounted = false;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-disk-'));
  mnt = join(dir, 'mnt');
  await mkdir(mnt);
});

afterAll(async () => {
  unmount();
  await rm(dir, { recursive: true, force: true });
});

function canMount(): boolean {
  try {
    mount('size=1m');
    unmount();
    return true;
  } catch {
    return false;
  }
}

describe('disks that cannot be written', () => {
  it('a read-only data folder: names the folder and what to do, no raw EROFS', async (ctx) => {
    if (process.platform !== 'linux' || !canMount()) ctx.skip();
    mount('size=1m');
    try {
      // The folder was used while the disk was writable; then the disk went read-only.
      const env = { TRAYSHARE_DATA_DIR: join(mnt, 'data') };
      expect((await runCli(['history'], { env })).code).toBe(0);
      execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'ignore' });
      const run = await runCli(['queue'], { env });
      expect(run.stderr).not.toMatch(/^EROFS/m);
      expect(run.stderr).toContain(mnt);
      expect(run.stderr).toMatch(/read-only file system.*TRAYSHARE_DATA_DIR/);
      expect(run.code).toBe(1);
    } finally {
      unmount();
    }
  });

  it('a full temp folder for `send -`: names it, says to free space, leaves nothing', async (ctx) => {
    if (process.platform !== 'linux' || !canMount()) ctx.skip();
    mount('size=256k');
    try {
      const run = await runCli(
        [
          'send',
          '--base-url',
          'http://127.0.0.1:9',
          '--channels',
          'C1',
          '--filename',
          'x.bin',
          '-',
        ],
        {
          env: { TMPDIR: mnt, TRAYSHARE_TOKEN: 'xoxb-test-token' },
          input: Buffer.alloc(2 * 1024 * 1024, 1),
        },
      );
      expect(run.stderr).not.toMatch(/^ENOSPC/m);
      expect(run.stderr).toContain(mnt);
      expect(run.stderr).toMatch(/full.*free space/);
      expect(run.code).toBe(1);
      expect(await readdir(mnt)).toEqual([]);
    } finally {
      unmount();
    }
  });
});
