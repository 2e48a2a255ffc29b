// Read-only and full disks (issue 15, item 5), on a real tmpfs: the CLI names the folder and
// says what to do instead of printing a raw EROFS / ENOSPC, and the look-only commands work on
// a read-only disk. Needs root to mount; skipped when mounting is not permitted.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { runCli } from './run-cli';

let dir: string;
let mnt: string;
let mounted = false;
let service: ReferenceService;

// posix-only: tmpfs mounts; every test checks process.platform before it calls these.
function mount(options: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mnt], { stdio: 'ignore' });
  mounted = true;
}

// posix-only: as mount() above.
function unmount(): void {
  if (mounted) execFileSync('umount', [mnt], { stdio: 'ignore' });
  mounted = false;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-disk-'));
  mnt = join(dir, 'mnt');
  await mkdir(mnt);
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});

afterAll(async () => {
  unmount();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

// A tmpfs mounted read-only or full stands in for the disk: that needs Linux and root (CI runs
// as root here; GitHub's runners are not root, macOS and Windows have no tmpfs).
const MOUNT_NEEDED = 'needs Linux and root to mount a small tmpfs (read-only or full)';

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
  it('a read-only data folder: queue and history still show what was saved; send names the folder and what to do', async (ctx) => {
    if (process.platform !== 'linux' || !canMount()) ctx.skip(MOUNT_NEEDED);
    mount('size=1m');
    const env = { TRAYSHARE_DATA_DIR: join(mnt, 'data') };
    try {
      // The folder was used while the disk was writable: one file delivered, one left queued
      // (the queue was paused, as the tray's pause leaves it); then the disk went read-only.
      const login = await runCli(['login', '--workspace', 'Disk', '--base-url', service.url], {
        env,
        input: 'xoxb-test-token\n',
      });
      expect(login.code).toBe(0);
      const files = ['sent.txt', 'waits.txt', 'later.txt'].map((n) => join(dir, n));
      for (const f of files) await writeFile(f, `${f}\n`);
      const [sent, waits, later] = files as [string, string, string];
      const send = ['send', '--workspace', 'Disk', '--channels', 'C0GENERAL'];
      expect((await runCli([...send, sent], { env })).code).toBe(0);
      const state = join(mnt, 'data', 'cli-state');
      await writeFile(join(state, 'paused'), '');
      await runCli([...send, waits], { env, timeoutMs: 15_000 });
      execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'ignore' });

      const queue = await runCli(['queue'], { env });
      expect(queue.stderr).not.toMatch(/EROFS/);
      expect(queue.stderr).toContain(`${state} is on a read-only file system`);
      expect(queue.stdout).toMatch(/\tqueued\twaits\.txt\tC0GENERAL/);
      expect(queue.code).toBe(0);
      const history = await runCli(['history', '--search', 'sent'], { env });
      expect(history.stdout).toMatch(/\tdelivered\tsent\.txt /);
      expect(history.code).toBe(0);

      const before = service.uploads().length;
      const refused = await runCli([...send, later], { env });
      expect(refused.stderr).not.toMatch(/^EROFS/m);
      expect(refused.stderr).toContain(mnt);
      expect(refused.stderr).toMatch(/read-only file system.*TRAYSHARE_DATA_DIR/);
      expect(refused.code).toBe(1);
      expect(service.uploads().length).toBe(before);
    } finally {
      if (mounted) execFileSync('mount', ['-o', 'remount,rw', mnt], { stdio: 'ignore' });
      await runCli(['logout', '--workspace', 'Disk'], { env });
      unmount();
    }
  }, 60_000);

  it('a full data disk: send names the folder and says to free space; queue and history still show what was saved', async (ctx) => {
    if (process.platform !== 'linux' || !canMount()) ctx.skip(MOUNT_NEEDED);
    mount('size=1m');
    const env = { TRAYSHARE_DATA_DIR: join(mnt, 'data') };
    try {
      const login = await runCli(['login', '--workspace', 'Full', '--base-url', service.url], {
        env,
        input: 'xoxb-test-token\n',
      });
      expect(login.code).toBe(0);
      const sent = join(dir, 'before-full.txt');
      const later = join(dir, 'after-full.txt');
      await writeFile(sent, 'sent\n');
      await writeFile(later, 'later\n');
      const send = ['send', '--workspace', 'Full', '--channels', 'C0GENERAL'];
      expect((await runCli([...send, sent], { env })).code).toBe(0);
      // Fill the disk to the last byte.
      await writeFile(join(mnt, 'filler'), Buffer.alloc(1024 * 1024)).catch(() => undefined);

      const before = service.uploads().length;
      const refused = await runCli([...send, later], { env });
      expect(refused.stderr).not.toMatch(/^ENOSPC/m);
      expect(refused.stderr).toContain(mnt);
      expect(refused.stderr).toMatch(/the disk is full\. Free some space there/);
      expect(refused.code).toBe(1);
      expect(service.uploads().length).toBe(before);

      const history = await runCli(['history'], { env });
      expect(history.stdout).toMatch(/\tdelivered\tbefore-full\.txt /);
      expect(history.code).toBe(0);
      expect(history.stderr).toMatch(/cli-state is on a full disk: this is what was saved there/);
      const queue = await runCli(['queue'], { env });
      expect(queue.stderr).not.toMatch(/ENOSPC/);
      expect(queue.stdout).toMatch(/\tdelivered\tbefore-full\.txt\t/);
      expect(queue.code).toBe(0);
    } finally {
      await rm(join(mnt, 'filler'), { force: true });
      await runCli(['logout', '--workspace', 'Full'], { env });
      unmount();
    }
  }, 60_000);

  it('a full temp folder for `send -`: names it, says to free space, leaves nothing', async (ctx) => {
    if (process.platform !== 'linux' || !canMount()) ctx.skip(MOUNT_NEEDED);
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
