import { describe, expect, it } from 'vitest';
import { parseOptions } from './options';
import { diskNeeded, rotate } from './scenarios';

describe('rotate', () => {
  it('starts each round with the next client, so none always runs first', () => {
    expect([0, 1, 2, 3].map((r) => rotate(['a', 'b', 'c'], r).join(''))).toEqual([
      'abc',
      'bca',
      'cab',
      'abc',
    ]);
  });
});

describe('diskNeeded', () => {
  it('counts the largest file twice (the test file and the service copy)', () => {
    const options = parseOptions(['--only', 'large', '--sizes', '256M,2G']);
    expect(diskNeeded(options)).toBe(2 * 2 ** 31 + 256 * 2 ** 20);
  });
  it('counts the concurrent files and their copies', () => {
    const options = parseOptions(['--only', 'concurrent']);
    expect(diskNeeded(options)).toBe(2 * 3 * 256 * 2 ** 20 + 256 * 2 ** 20);
  });
});

describe('parseOptions', () => {
  it('defaults to the full run: four sizes up to 4 GiB, 500 small files, five runs', () => {
    const o = parseOptions([]);
    expect(o.sizes).toEqual([256 * 2 ** 20, 2 ** 30, 2 ** 31, 2 ** 32]);
    expect(o.smallCount).toBe(500);
    expect(o.runs).toBe(5);
    expect(o.only).toEqual([
      'large',
      'small',
      'concurrent',
      'external',
      'multi-file',
      'link-share',
      'progress',
      'core',
      'startup',
      'app-path',
      'photo-details',
    ]);
  });
  it('quick mode takes smaller sizes and fewer runs unless told otherwise', () => {
    const o = parseOptions(['--quick', '--runs', '3']);
    expect(o.runs).toBe(3);
    // No 4 GiB case: --quick skips it.
    expect(Math.max(...o.sizes)).toBeLessThan(2 ** 30);
  });
  it('refuses an unknown comparison by name', () => {
    expect(() => parseOptions(['--only', 'huge'])).toThrow(/Unknown comparison "huge"/);
  });
});
