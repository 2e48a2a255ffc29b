// What a queue test waits for and looks at, told from what the person sees (the queue's list, as
// the queue view reads it) rather than from members only tests would use. No vitest import: the
// crash driver runs it in a plain Node process.
import type { QueueItem } from '../../main/core/model';
import type { UploadQueue } from '../../main/core/queue/upload-queue';
import { isFinishedState } from '../../main/portable/item-states';
import { needsToken } from '../../renderer/src/queue-state';

/**
 * Until every item is finished (as the queue's list shows them) and their History lines are
 * written (settled() holds for those): what the test waits for before looking at outcomes.
 */
export async function allFinished(queue: UploadQueue): Promise<void> {
  for (;;) {
    // Listening before looking, so a change between the two is not missed.
    let off = (): void => {};
    const changed = new Promise<void>((resolve) => {
      off = queue.onChange(() => resolve());
    });
    await queue.settled();
    if (queue.list().every((item) => isFinishedState(item.state))) {
      off();
      return;
    }
    await changed;
    off();
  }
}

/** Workspaces the queue view shows as stopped until a new token is given. */
export function workspacesNeedingToken(items: readonly QueueItem[]): string[] {
  return [...new Set(items.filter(needsToken).map((item) => item.workspaceId))];
}
