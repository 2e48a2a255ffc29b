// The share-check window (how long files.info is asked after an unclear completion, before a
// file is "may have been delivered") is one constant. The pages that state it in words are
// checked against it here, so changing the constant fails this test until the docs follow,
// and a page that states another figure fails too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SHARE_CHECK_LOOKS_AT,
  SHARE_CHECK_WINDOW_MS,
} from '../../main/core/upload/external/share-check';

const root = join(import.meta.dirname, '..', '..');
const page = (path: string) => readFileSync(join(root, path), 'utf8').replace(/\s+/g, ' ');
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

describe('the share-check window as the docs state it', () => {
  const seconds = SHARE_CHECK_WINDOW_MS / 1000;
  const uploads = page('docs/how-uploads-behave.md');

  it('docs/how-uploads-behave.md gives the number of looks and the window', () => {
    const looks = NUMBER_WORDS[SHARE_CHECK_LOOKS_AT.length];
    expect(uploads).toContain(
      `\`files.info\` whether the files reached their channels, ${looks} times over ${seconds} s`,
    );
    expect(uploads).toContain(`A \`files.info\` 429 is waited out within those ${seconds} s.`);
  });

  it('docs/how-uploads-behave.md states no other window', () => {
    const stated = [...uploads.matchAll(/(?:over|within those) (\d+) s/g)].map((m) => Number(m[1]));
    expect(stated.length).toBeGreaterThan(0);
    expect(stated.filter((s) => s !== seconds)).toEqual([]);
  });
});
