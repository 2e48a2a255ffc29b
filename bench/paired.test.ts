import { describe, expect, it } from 'vitest';
import { pairedFigures, pairOrder } from './paired';

describe('pairOrder', () => {
  it('alternates which side runs first', () => {
    expect([0, 1, 2, 3].map(pairOrder)).toEqual([
      ['a', 'b'],
      ['b', 'a'],
      ['a', 'b'],
      ['b', 'a'],
    ]);
  });
});

describe('pairedFigures', () => {
  it('takes the median of each pair’s ratio and difference, not the ratio of medians', () => {
    // Load doubled both sides in the last two rounds: per pair, A is always 1.5× B.
    const f = pairedFigures([30, 30, 60, 60], [20, 20, 40, 40]);
    expect(f.pairs).toBe(4);
    expect(f.ratio).toBeCloseTo(1.5);
    expect(f.difference).toBe(15);
    expect(f.medianA).toBe(45);
    expect(f.medianB).toBe(30);
  });

  it('leaves out a round that failed on either side', () => {
    const f = pairedFigures([10, Number.NaN, 12, 11], [5, 6, Number.NaN]);
    expect(f.pairs).toBe(1);
    expect(f.ratio).toBe(2);
  });

  it('has no figures without a pair', () => {
    expect(pairedFigures([], [1]).pairs).toBe(0);
    expect(pairedFigures([], [1]).ratio).toBeNaN();
  });
});
