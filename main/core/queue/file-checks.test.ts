import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asUnprivileged } from '../../../test/helpers/unprivileged';
import { checkPaths, describePaths, formatBytes, MAX_FOLDER_FILES } from './file-checks';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-checks-'));
});

afterEach(async () => {
  await chmod(root, 0o700).catch(() => {});
  await rm(root, { recursive: true, force: true });
});

const posix = process.platform !== 'win32';

describe('file checks when queued', () => {
  it('takes regular files with their size and modification time', async () => {
    const path = join(root, 'a.txt');
    await writeFile(path, 'hello');
    const { files, refused } = await checkPaths([path], 100);
    expect(refused).toEqual([]);
    expect(files).toEqual([{ path, name: 'a.txt', size: 5, mtimeMs: expect.any(Number) }]);
  });

  it('refuses a missing file and one over the size limit, saying why', async () => {
    const big = join(root, 'big.bin');
    await writeFile(big, Buffer.alloc(2048));
    const { files, refused } = await checkPaths([join(root, 'gone.txt'), big], 1024);
    expect(files).toEqual([]);
    expect(refused).toEqual([
      { path: join(root, 'gone.txt'), code: 'not_found', reason: 'No such file or folder.' },
      {
        path: big,
        code: 'too_large',
        reason: 'Too large: 2.0 KB; this workspace accepts files up to 1.0 KB.',
      },
    ]);
  });

  it('expands a folder to its regular files, sorted, skipping hidden entries and links', async () => {
    const folder = join(root, 'shots');
    await mkdir(join(folder, 'b-sub'), { recursive: true });
    await mkdir(join(folder, '.git'));
    await writeFile(join(folder, 'c.png'), 'c');
    await writeFile(join(folder, 'a.png'), 'a');
    await writeFile(join(folder, '.DS_Store'), 'x');
    await writeFile(join(folder, '.git', 'config'), 'x');
    await writeFile(join(folder, 'b-sub', 'z.png'), 'z');
    await symlink(join(folder, 'a.png'), join(folder, 'link.png'));
    const { files, refused } = await checkPaths([folder], 100);
    expect(refused).toEqual([]);
    expect(files.map((f) => f.path)).toEqual([
      join(folder, 'a.png'),
      join(folder, 'b-sub', 'z.png'),
      join(folder, 'c.png'),
    ]);
  });

  it('refuses an empty folder and one with too many files', async () => {
    const empty = join(root, 'empty');
    await mkdir(join(empty, 'only-hidden'), { recursive: true });
    await writeFile(join(empty, 'only-hidden', '.secret'), 'x');
    const many = join(root, 'many');
    await mkdir(many);
    for (let i = 0; i <= MAX_FOLDER_FILES; i++) await writeFile(join(many, `f${i}`), '');
    const { files, refused } = await checkPaths([empty, many], 100);
    expect(files).toEqual([]);
    expect(refused).toEqual([
      {
        path: empty,
        code: 'folder_empty',
        reason: expect.stringMatching(/^The folder holds no files/),
      },
      {
        path: many,
        code: 'folder_too_large',
        reason: expect.stringMatching(/more than 200 files/),
      },
    ]);
  });

  it('queues a path given twice (or through its folder) once', async () => {
    const folder = join(root, 'f');
    await mkdir(folder);
    await writeFile(join(folder, 'a.txt'), 'a');
    const { files } = await checkPaths([join(folder, 'a.txt'), folder, join(folder, 'a.txt')], 100);
    expect(files.map((f) => f.name)).toEqual(['a.txt']);
  });

  it.skipIf(!posix)('refuses something that is not a regular file', async () => {
    const fifo = join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading blocks until a writer comes; the check must not hang on it.
    const { refused } = await checkPaths([fifo], 100);
    expect(refused).toEqual([
      { path: fifo, code: 'not_regular_file', reason: expect.stringMatching(/Not a regular file/) },
    ]);
  });

  // Root reads any file: as root (CI) the check runs as nobody (test/helpers/unprivileged.ts).
  // Windows does not stop reading for a mode of 0o000.
  it.skipIf(!posix)('refuses a file it may not read', async () => {
    const path = join(root, 'private.txt');
    await writeFile(path, 'x');
    await chmod(path, 0o000);
    const { refused } = await asUnprivileged([root], () => checkPaths([path], 100));
    expect(refused).toEqual([
      { path, code: 'permission_denied', reason: expect.stringMatching(/permission denied/) },
    ]);
  });
});

describe('describing picked paths before Share', () => {
  it("gives a file's size, a folder's file count and total, and why a path would be refused", async () => {
    await writeFile(join(root, 'a.txt'), 'hello');
    const folder = join(root, 'shots');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'one.png'), 'x'.repeat(300));
    await writeFile(join(folder, 'sub', 'two.png'), 'x'.repeat(20));
    await writeFile(join(folder, 'too-big.bin'), 'x'.repeat(2000));
    await mkdir(join(root, 'empty'));
    const described = await describePaths(
      [join(root, 'a.txt'), folder, join(root, 'empty'), join(root, 'gone.txt')],
      1000,
    );
    expect(described).toEqual([
      { path: join(root, 'a.txt'), kind: 'file', files: 1, bytes: 5 },
      {
        path: folder,
        kind: 'folder',
        files: 2,
        bytes: 320,
        skipped: [
          {
            path: join(folder, 'too-big.bin'),
            code: 'too_large',
            reason: expect.stringMatching(/^Too large/),
          },
        ],
      },
      {
        path: join(root, 'empty'),
        kind: 'folder',
        files: 0,
        bytes: 0,
        refused: { code: 'folder_empty', reason: expect.stringMatching(/holds no files/) },
      },
      {
        path: join(root, 'gone.txt'),
        kind: 'file',
        files: 0,
        bytes: 0,
        refused: { code: 'not_found', reason: 'No such file or folder.' },
      },
    ]);
  });

  it('refuses a folder whose every file is too large, saying so', async () => {
    const folder = join(root, 'videos');
    await mkdir(folder);
    await writeFile(join(folder, 'a.mov'), 'x'.repeat(200));
    const [described] = await describePaths([folder], 100);
    expect(described?.refused).toEqual({
      code: 'too_large',
      reason: expect.stringMatching(/^Nothing in it can be sent: Too large/),
    });
  });
});

describe('formatBytes', () => {
  it('prints sizes people read', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    // The same decimal units as the window, and never "1000 KB".
    expect(formatBytes(999_999)).toBe('1.0 MB');
    expect(formatBytes(1024 ** 3)).toBe('1.1 GB');
  });
});
