// The portal's file, once it passed: a private copy, and the original removed only from the
// shared temp folder (one among the person's pictures stays). Refusals run on a real bus in
// test/capture/portal-trust.test.ts.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TINY_PNG } from '../../../test/harness/tiny-png';
import { takePortalFile } from './portal-file';

let pictures: string;
let temp: string;
let scratch: string;
beforeEach(async () => {
  pictures = await mkdtemp(join(tmpdir(), 'trayshare-pictures-'));
  temp = await mkdtemp(join(tmpdir(), 'trayshare-temp-'));
  scratch = join(await mkdtemp(join(tmpdir(), 'trayshare-private-')), '.capture.png');
  // The shared temp folder, for this test: os.tmpdir() reads TMPDIR on each call.
  vi.stubEnv('TMPDIR', temp);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const dir of [pictures, temp, join(scratch, '..')]) {
    await rm(dir, { recursive: true, force: true });
  }
});

it('copies a file among the person’s pictures to a private scratch file and leaves the original', async () => {
  const shot = join(pictures, 'Screenshot.png');
  await writeFile(shot, TINY_PNG);
  expect(await takePortalFile(shot, scratch)).toEqual({ kind: 'file', path: scratch });
  expect(await readFile(scratch)).toEqual(TINY_PNG);
  if (process.platform !== 'win32') expect((await stat(scratch)).mode & 0o777).toBe(0o600);
  expect(await readFile(shot)).toEqual(TINY_PNG);
});

it('removes a file it took from the shared temp folder', async () => {
  const shot = join(temp, 'Screenshot.png');
  await writeFile(shot, TINY_PNG);
  expect(await takePortalFile(shot, scratch)).toEqual({ kind: 'file', path: scratch });
  await expect(stat(shot)).rejects.toThrow(/ENOENT/);
});
