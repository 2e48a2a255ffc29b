import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../preload/contract';
import { groupShares, overallProgress } from './queue-groups';

let n = 0;
function item(over: Partial<QueueItem>): QueueItem {
  n++;
  return {
    id: `i${n}`,
    shareId: `s${n}`,
    workspaceId: 'W',
    channels: ['C1'],
    comment: '',
    path: `/f/${n}`,
    name: `${n}.txt`,
    size: 100,
    mtimeMs: 0,
    state: 'queued',
    sent: 0,
    attempts: 0,
    createdAt: n,
    updatedAt: n,
    ...over,
  } as QueueItem;
}

describe('groupShares', () => {
  it('puts moving shares first, then those needing a decision, then finished, newest first', () => {
    const oldDone = item({ state: 'delivered', createdAt: 1 });
    const failed = item({ state: 'failed', createdAt: 2 });
    const newDone = item({ state: 'delivered', createdAt: 3 });
    const sendingA = item({ shareId: 'S', state: 'sending', createdAt: 4 });
    const sendingB = item({ shareId: 'S', state: 'delivered', createdAt: 4 });
    const queuedNewest = item({ state: 'queued', createdAt: 5 });
    const groups = groupShares([oldDone, failed, newDone, sendingA, sendingB, queuedNewest]);
    expect(groups.map((g) => [g.band, g.items.map((i) => i.id)])).toEqual([
      ['active', [queuedNewest.id]],
      ['active', [sendingA.id, sendingB.id]],
      ['attention', [failed.id]],
      ['finished', [newDone.id]],
      ['finished', [oldDone.id]],
    ]);
  });

  it('keeps items without a shareId apart', () => {
    const a = item({ shareId: undefined });
    const b = item({ shareId: undefined });
    expect(groupShares([a, b])).toHaveLength(2);
  });
});

describe('overallProgress', () => {
  it('counts what is still to go, and only the bytes of files sending', () => {
    const q = [
      item({ state: 'sending', sent: 40, size: 100 }),
      item({ state: 'queued', size: 300 }),
      item({ state: 'delivered', sent: 100, size: 100 }),
    ];
    expect(overallProgress(q)).toEqual({ sent: 40, size: 400, files: 2 });
  });
});
