// A journal or history append that meets a full disk (issue 27, item 10), on a real tmpfs: the
// failed record leaves nothing behind, so once space returns in the same process the next
// records are read back whole, and so is every record that was reported written.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlAppender, readJsonl } from '../../main/core/history/jsonl-file';
import { type Tmpfs, tmpfsOrSkipReason } from './tmpfs';

let dir: string;
let disk: Tmpfs | string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-append-'));
  disk = await tmpfsOrSkipReason(join(dir, 'mnt'), '256k');
});

afterEach(async () => {
  if (typeof disk !== 'string') disk.unmount();
  await rm(dir, { recursive: true, force: true });
});

describe('an append on a full disk', () => {
  it('fails whole: after space returns, every record reported written reads back', async (ctx) => {
    if (typeof disk === 'string') {
      console.warn(`skipped: ${disk}`);
      return ctx.skip();
    }
    const path = join(disk.dir, 'queue.jsonl');
    const file = await JsonlAppender.open(path);
    const written: unknown[] = [];
    const before = { t: 'set', id: 'a', item: { state: 'sending' } };
    await file.append([before], { sync: true });
    written.push(before);

    await disk.fill();
    // Larger than a page: part of it fits in what the file's last page has left, the rest not.
    const refused = { t: 'set', id: 'b', item: { state: 'delivered', note: 'x'.repeat(9000) } };
    await expect(file.append([refused], { sync: true })).rejects.toMatchObject({ code: 'ENOSPC' });
    // Nothing of the refused record is left for the next one to be glued to.
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(before)}\n`);

    await disk.free();
    const after = { t: 'set', id: 'b', item: { state: 'delivered' } };
    await file.append([after], { sync: true });
    written.push(after);
    await file.close();

    const read = await readJsonl(path);
    expect(read).toEqual({ values: written, torn: false, bad: 0 });
  });
});
