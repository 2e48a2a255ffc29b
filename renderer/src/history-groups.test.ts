import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../preload/contract';
import { groupHistory } from './history-groups';

let n = 0;
function entry(over: Partial<HistoryEntry>): HistoryEntry {
  n++;
  return {
    id: `i${n}.1`,
    at: 1000 - n,
    workspaceId: 'W',
    workspaceName: 'Acme',
    channels: ['C1'],
    comment: '',
    path: `/f/${n}`,
    name: `${n}.txt`,
    size: 100,
    outcome: 'delivered',
    ...over,
  };
}

describe('groupHistory', () => {
  it('puts the files of one share in one group, where its newest file is, keeping the order', () => {
    const a1 = entry({ shareId: 'A' });
    const b1 = entry({ shareId: 'B' });
    const a2 = entry({ shareId: 'A', outcome: 'failed' });
    const old = entry({});
    const groups = groupHistory([a1, b1, a2, old]);
    expect(groups.map((g) => g.entries.map((e) => e.id))).toEqual([
      [a1.id, a2.id],
      [b1.id],
      [old.id],
    ]);
    // One outcome only when every file agrees.
    expect(groups.map((g) => g.outcome)).toEqual([undefined, 'delivered', 'delivered']);
  });

  it('entries without a share stand alone even when they look alike', () => {
    const groups = groupHistory([entry({}), entry({})]);
    expect(groups).toHaveLength(2);
  });
});
