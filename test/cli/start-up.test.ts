// Start-up (issue 25): `--version` answers without loading the program, and every run keeps
// Node's compile cache where NODE_COMPILE_CACHE (or the platform's cache folder) says, so the
// next start reuses it. How fast is measured in bench/, never here.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, runCli } from './run-cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-start-up-test-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('trayshare start-up', () => {
  it('--version and -V print the version of package.json and exit 0', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag], { env: { TRAYSHARE_DATA_DIR: join(dir, 'data') } });
      expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('--version with anything else still goes through the full command line', async () => {
    const run = await runCli(['--version', 'send'], {
      env: { TRAYSHARE_DATA_DIR: join(dir, 'data') },
    });
    // Commander answers the version option first, as it always has.
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('keeps the compile cache in NODE_COMPILE_CACHE, and a second run finds it there', async () => {
    const cache = join(dir, 'compile-cache');
    const env = { NODE_COMPILE_CACHE: cache, TRAYSHARE_DATA_DIR: join(dir, 'data') };
    const first = await runCli(['send', '--help'], { env });
    expect(first.code).toBe(0);
    const cached = await filesUnder(cache);
    // One cache entry per module compiled after the entry: the program and its chunks.
    expect(cached.length).toBeGreaterThan(0);
    const second = await runCli(['send', '--help'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect((await filesUnder(cache)).sort()).toEqual(cached.sort());
  });

  it('runs as before, uncached, where the cache folder cannot be made', async () => {
    const blocked = join(dir, 'not-a-folder');
    await writeFile(blocked, 'a file, not a folder');
    const run = await runCli(['send', '--help'], {
      env: { NODE_COMPILE_CACHE: join(blocked, 'cache'), TRAYSHARE_DATA_DIR: join(dir, 'data') },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: trayshare send');
    expect(run.stderr).toBe('');
  });
});
