import { describe, expect, it } from 'vitest';
import { byteBudget, MOST_AT_ONCE, SLOT_BYTES, slotsFor } from './byte-budget';

const MB = 1_000_000;

/** Runs files of these sizes through a budget; returns the most running at once and the start order. */
async function run(slots: number, sizes: number[]) {
  const budget = byteBudget(slots);
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const releases: (() => void)[] = [];
  const all = sizes.map((size, i) =>
    budget(size, async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
    }),
  );
  // Let whoever fits start, then finish them one by one, oldest first.
  for (let done = 0; done < sizes.length; done++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    releases.shift()?.();
  }
  await Promise.all(all);
  return { peak, started };
}

describe('byte budget: the concurrency setting as slots of bytes in flight', () => {
  it('a file weighs its size over a slot, between a tenth and one', () => {
    expect(slotsFor(1000)).toBeCloseTo(0.1);
    expect(slotsFor(SLOT_BYTES / 2)).toBeCloseTo(0.5);
    expect(slotsFor(SLOT_BYTES * 5)).toBe(1);
  });

  it('ten 2 MB screenshots all go at once at the default of 3 slots; four at 1', async () => {
    expect((await run(3, Array(10).fill(2 * MB))).peak).toBe(10);
    expect((await run(1, Array(10).fill(2 * MB))).peak).toBe(4);
  });

  it('large files go at most as many at once as the setting', async () => {
    expect((await run(3, Array(6).fill(SLOT_BYTES * 4))).peak).toBe(3);
    expect((await run(1, Array(4).fill(SLOT_BYTES))).peak).toBe(1);
  });

  it(`never more than ${MOST_AT_ONCE} files at once, however small`, async () => {
    expect((await run(8, Array(30).fill(100))).peak).toBe(MOST_AT_ONCE);
  });

  it('starts files in the order given: a large one is not passed over by smaller ones behind it', async () => {
    // The small ones would fit beside the first, but the whole-slot file is ahead of them.
    const { started } = await run(1, [6 * MB, SLOT_BYTES, 1000, 1000]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('a file larger than the whole budget still goes, alone', async () => {
    expect((await run(1, [SLOT_BYTES * 100, 1000])).peak).toBe(1);
  });
});
