import { describe, expect, it } from 'vitest';
import type { QueueItem } from '../../preload/contract';
import { groupShares, overallProgress } from './queue-groups';
import { needsAttention, needsToken, workspaceLost } from './queue-state';

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

describe('groupShares with a share just sent', () => {
  it('lists that share first, whatever its band, and the rest as usual', () => {
    const failed = item({ state: 'failed', createdAt: 1 });
    const sending = item({ state: 'sending', createdAt: 2 });
    const mine = item({ shareId: 'MINE', state: 'delivered', createdAt: 3 });
    const ids = (first?: string) =>
      groupShares([failed, sending, mine], first).map((g) => g.items[0]!.id);
    expect(ids('MINE')).toEqual([mine.id, sending.id, failed.id]);
    expect(ids()).toEqual([sending.id, failed.id, mine.id]);
  });
});

describe('overallProgress', () => {
  it('counts the shares still moving as their rows do: delivered files in full, sending ones so far', () => {
    const q = [
      item({ shareId: 'S', state: 'sending', sent: 40, size: 100 }),
      item({ shareId: 'S', state: 'queued', size: 300 }),
      item({ shareId: 'S', state: 'delivered', sent: 100, size: 100 }),
      // A share already finished is not in the bar.
      item({ state: 'delivered', sent: 100, size: 100 }),
    ];
    expect(overallProgress(q)).toEqual({ sent: 140, size: 500, files: 3, delivered: 1 });
  });
});

describe('items the queue holds for the person', () => {
  const lost = () =>
    item({
      state: 'waiting',
      error: {
        class: 'credential',
        code: 'workspace_lost',
        message: 'The workspace of this upload was in a settings file that was damaged…',
      },
    });
  const refused = () =>
    item({
      state: 'waiting',
      error: { class: 'credential', code: 'token_revoked', message: 'This token was revoked.' },
    });

  it('tells a workspace lost with the settings file from a refused token', () => {
    expect([workspaceLost(lost()), needsToken(lost())]).toEqual([true, false]);
    expect([workspaceLost(refused()), needsToken(refused())]).toEqual([false, true]);
  });

  it('puts both among what needs a decision, out of the overall progress', () => {
    const moving = item({ state: 'sending', sent: 40 });
    const held = [lost(), refused()];
    expect(groupShares([...held, moving]).map((g) => g.band)).toEqual([
      'active',
      'attention',
      'attention',
    ]);
    expect(overallProgress([...held, moving])).toMatchObject({ files: 1, size: 100, sent: 40 });
    expect(needsAttention([lost()])).toBe(true);
  });
});
