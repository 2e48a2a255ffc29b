import { describe, expect, it } from 'vitest';
import { formatRatio, formatRss, median, parseSize, ratio, sizeLabel } from './stats';

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });
  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('is not a number when there is nothing to take it from', () => {
    expect(median([])).toBeNaN();
  });
});

describe('ratio', () => {
  it('divides A by B', () => {
    expect(ratio(3, 2)).toBe(1.5);
  });
  it('shows a missing side as "–", never as Infinity', () => {
    expect(formatRatio(ratio(3, 0))).toBe('–');
    expect(formatRatio(ratio(Number.NaN, 2))).toBe('–');
    expect(formatRatio(ratio(1.054, 1))).toBe('1.05×');
  });
});

describe('sizes', () => {
  it('reads the sizes people type, in binary units', () => {
    expect(parseSize('256M')).toBe(256 * 2 ** 20);
    expect(parseSize('1G')).toBe(2 ** 30);
    expect(parseSize('2GiB')).toBe(2 ** 31);
    expect(parseSize('10k')).toBe(10 * 1024);
    expect(parseSize('1.5G')).toBe(1.5 * 2 ** 30);
    expect(parseSize('4096')).toBe(4096);
  });
  it('refuses what is not a size', () => {
    expect(() => parseSize('big')).toThrow(/Not a size/);
    expect(() => parseSize('0M')).toThrow();
    expect(() => parseSize('-1G')).toThrow();
  });
  it('labels a size as it was asked for', () => {
    expect(sizeLabel(256 * 2 ** 20)).toBe('256 MiB');
    expect(sizeLabel(2 ** 31)).toBe('2 GiB');
    expect(sizeLabel(10 * 1024)).toBe('10 KiB');
  });
  it('shows peak RSS (KiB from /usr/bin/time) in MB, the unit of the 150 MB target', () => {
    expect(formatRss(146_485)).toBe('150 MB');
  });
});
