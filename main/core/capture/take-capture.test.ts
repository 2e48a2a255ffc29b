// One capture, whatever took it: what the tool said it took and the thumbnail it made reach the
// store with the image, and the tool's scratch file goes.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { takeCapture } from './take-capture';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-take-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('keeps the image with the thumbnail and the kind of capture the tool reports', async () => {
  const thumbnail = new Uint8Array([9, 9]);
  let scratch = '';
  const keep = vi.fn(async () => join(dir, 'kept.png'));
  const result = await takeCapture({
    dir,
    source: 'area',
    keep,
    capturer: async (_source, path) => {
      scratch = path;
      await writeFile(path, 'png');
      // The overlay: the person pressed Enter, so the whole screen.
      return { kind: 'file', path, source: 'screen', thumbnail };
    },
  });
  expect(result).toEqual({ kind: 'captured', path: join(dir, 'kept.png'), source: 'screen' });
  expect(keep).toHaveBeenCalledWith(scratch, 'screen', { thumbnail });
  await expect(stat(scratch)).rejects.toThrow();
});

it('keeps a tool’s image without a thumbnail as the source asked', async () => {
  const keep = vi.fn(async () => join(dir, 'kept.png'));
  const result = await takeCapture({
    dir,
    source: 'window',
    keep,
    capturer: async (_source, path) => {
      await writeFile(path, 'png');
      return { kind: 'file', path };
    },
  });
  expect(result).toMatchObject({ kind: 'captured', source: 'window' });
  expect(keep).toHaveBeenCalledWith(expect.any(String), 'window', {});
});
