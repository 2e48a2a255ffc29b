import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlAppender, parseJsonl, readJsonl } from './jsonl-file';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-jsonl-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseJsonl', () => {
  it('reads whole lines and drops a torn last one', () => {
    expect(parseJsonl('{"a":1}\n{"b":2}\n{"c":')).toEqual({
      values: [{ a: 1 }, { b: 2 }],
      torn: true,
      bad: 0,
    });
  });

  it('keeps a last record that lost only its newline', () => {
    expect(parseJsonl('{"a":1}\n{"b":2}')).toEqual({
      values: [{ a: 1 }, { b: 2 }],
      torn: true,
      bad: 0,
    });
  });

  it('counts complete lines that are not objects', () => {
    expect(parseJsonl('{"a":1}\ngarbage\n[1]\n\n{"b":2}\n')).toEqual({
      values: [{ a: 1 }, { b: 2 }],
      torn: false,
      bad: 2,
    });
  });
});

describe('JsonlAppender', () => {
  it('appends records in call order, batching concurrent appends', async () => {
    const path = join(dir, 'log.jsonl');
    const file = await JsonlAppender.open(path);
    await Promise.all(
      Array.from({ length: 50 }, (_, n) => file.append([{ n }], { sync: n % 7 === 0 })),
    );
    await file.close();
    expect((await readJsonl(path)).values).toEqual(Array.from({ length: 50 }, (_, n) => ({ n })));
  });

  it('rewrites atomically, keeping appends made meanwhile, and leaves no temporary file', async () => {
    const path = join(dir, 'log.jsonl');
    const file = await JsonlAppender.open(path);
    await file.append([{ n: 1 }, { n: 2 }], { sync: true });
    const rewrite = file.rewrite(() => [{ snapshot: true }]);
    const after = file.append([{ n: 3 }], { sync: true });
    await Promise.all([rewrite, after]);
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('{"snapshot":true}\n{"n":3}\n');
    expect(await readdir(dir)).toEqual(['log.jsonl']);
    expect(file.appendedSinceRewrite).toBe(1);
  });

  it('refuses appends after close', async () => {
    const file = await JsonlAppender.open(join(dir, 'log.jsonl'));
    await file.close();
    await expect(file.append([{ n: 1 }], { sync: false })).rejects.toThrow(/closed/);
  });
});
