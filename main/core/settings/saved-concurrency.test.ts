import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savedConcurrency } from './saved-concurrency';
import { DEFAULT_PREFERENCES } from './schema';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-saved-concurrency-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const save = (text: string) => writeFile(join(dir, 'config.json'), text);

describe('the concurrency setting read for send --base-url', () => {
  it('is the saved value', async () => {
    await save(JSON.stringify({ version: 2, preferences: { concurrency: 6 } }));
    expect(savedConcurrency(dir)).toBe(6);
  });

  it('is the settings default with no settings file, a broken one, or a value the app would refuse', async () => {
    expect(savedConcurrency(dir)).toBe(DEFAULT_PREFERENCES.concurrency);
    for (const text of [
      '{"preferences": {"concurrency": 42}}',
      '{"preferences": {"concurrency": 0}}',
      '{"preferences": {"concurrency": 2.5}}',
      '{"preferences": {"concurrency": "4"}}',
      '{"preferences": null}',
      'null',
      '{"prefer',
    ]) {
      await save(text);
      expect(savedConcurrency(dir), text).toBe(DEFAULT_PREFERENCES.concurrency);
    }
  });
});
