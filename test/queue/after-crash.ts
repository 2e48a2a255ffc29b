// What a restart after a crash must show for every file of the test: delivered, posted once; or
// "may have been delivered" (unknown, interrupted_after_body) because the attempt had sent its
// whole body before the kill, and never posted twice. A file cut off before its body was complete
// had not reached the service, so the restart must send it again: "failed" is never an answer
// here, since no fault but the crash (and slow answers) is injected.
import { expect } from 'vitest';
import type { QueueItem } from '../../main/core/model';

export function expectNoneLost(items: readonly QueueItem[], counts: readonly number[]): void {
  items.forEach((item, i) => {
    const what = `${item.name}: ${item.state} (${item.error?.code ?? 'no error'}), posted ${counts[i]}x`;
    expect(['delivered', 'unknown'], what).toContain(item.state);
    if (item.state === 'delivered') expect(counts[i], what).toBe(1);
    else expect(item.error?.code, what).toBe('interrupted_after_body');
    expect(counts[i], what).toBeLessThanOrEqual(1);
  });
}
