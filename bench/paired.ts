// Paired runs: two commands run back to back, in an order that alternates from round to round,
// and compared round by round. On a shared machine the load drifts over minutes; within one
// round both sides see nearly the same load, so the ratio of each pair moves far less than
// either side's time. The figures are medians over the pairs (issue 25).
import { median } from './stats';

/** The two sides' order in round `round`: A then B in even rounds, B then A in odd ones. */
export function pairOrder(round: number): ['a', 'b'] | ['b', 'a'] {
  return round % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
}

export interface PairedFigures {
  /** Pairs in which both sides have a figure. */
  pairs: number;
  medianA: number;
  medianB: number;
  /** Median over the pairs of a / b. */
  ratio: number;
  /** Median over the pairs of a − b. */
  difference: number;
}

/** Round i of `a` against round i of `b`; a round missing on either side is left out. */
export function pairedFigures(a: readonly number[], b: readonly number[]): PairedFigures {
  const both: [number, number][] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isFinite(x) && Number.isFinite(y) && y > 0) both.push([x, y]);
  }
  if (both.length === 0) {
    return { pairs: 0, medianA: NaN, medianB: NaN, ratio: NaN, difference: NaN };
  }
  return {
    pairs: both.length,
    medianA: median(both.map(([x]) => x)),
    medianB: median(both.map(([, y]) => y)),
    ratio: median(both.map(([x, y]) => x / y)),
    difference: median(both.map(([x, y]) => x - y)),
  };
}
