// The files of one share that complete together (Slack's external protocol: one message per
// group of at most 10 files, with the share's one comment). Each file's attempt uploads its
// bytes on its own (steps 1-2, in its queue slot) and then hands over here; it gives its slot
// back and waits. Once no file of the share is still on its way (each has handed over or has
// ended: delivered, failed, unknown, cancelled), the handed-over files complete in groups of at
// most 10, in queue order, one group after the other. A file that fails or is cancelled does
// not hold the others: they complete without it. A file cancelled while it waits leaves its
// group before the group is sent. The share's comment goes with its first message only: a
// group goes without it once another message of the share was (or may have been) posted.
import { isFinishedState } from '../../portable/item-states';
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { MAX_FILES_PER_COMPLETION } from '../upload/external/request';

export interface ShareMember {
  item: QueueItem;
}

interface Waiting<M> {
  member: M;
  resolve: (result: AttemptResult) => void;
  reject: (error: unknown) => void;
  /** Part of a completion under way: only its answer ends the wait. */
  completing: boolean;
}

export interface CompletionRun {
  readonly controller: AbortController;
  /** The group's completion journaled "body complete": the service may have the request. */
  bodySent: boolean;
  /** This group's message carries the share's comment (the share has no message yet). */
  readonly withComment: boolean;
}

export interface ShareGroupsHost<M extends ShareMember> {
  /** The share's files still in the queue, in queue order. */
  members(shareId: string): M[];
  /** One completion of a group of handed-over files; one result per file, in order. */
  complete(group: M[], run: CompletionRun): Promise<AttemptResult[]>;
}

export class ShareGroups<M extends ShareMember> {
  /** Handed-over files by share, then by item id. */
  private readonly waiting = new Map<string, Map<string, Waiting<M>>>();
  private readonly running = new Set<CompletionRun>();
  private readonly busy = new Set<string>();

  constructor(private readonly host: ShareGroupsHost<M>) {}

  /** Handed over: resolves with this file's part of its group's completion. */
  handOver(member: M, signal: AbortSignal): Promise<AttemptResult> {
    const { id, shareId } = member.item;
    return new Promise<AttemptResult>((resolve, reject) => {
      const share = this.waiting.get(shareId) ?? new Map<string, Waiting<M>>();
      this.waiting.set(shareId, share);
      const waiting: Waiting<M> = { member, resolve, reject, completing: false };
      share.set(id, waiting);
      const onAbort = () => {
        if (waiting.completing || share.get(id) !== waiting) return;
        this.leave(shareId, id);
        resolve({ kind: 'cancelled' });
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.check(shareId);
    });
  }

  /** This file's attempt handed over and is waiting for its group (it holds no slot). */
  isWaiting(item: QueueItem): boolean {
    return this.waiting.get(item.shareId)?.has(item.id) ?? false;
  }

  /** Completions under way (the queue's close stops them). */
  runs(): CompletionRun[] {
    return [...this.running];
  }

  /** Call when a file of the share ended: the rest may be ready to complete. */
  check(shareId: string): void {
    const share = this.waiting.get(shareId);
    if (!share || share.size === 0 || this.busy.has(shareId)) return;
    const members = this.host.members(shareId);
    const onTheirWay = members.some((m) => !isFinishedState(m.item.state) && !share.has(m.item.id));
    if (onTheirWay) return;
    const ready = members.flatMap((m) => {
      const w = share.get(m.item.id);
      return w ? [w] : [];
    });
    if (ready.length === 0) return;
    this.busy.add(shareId);
    void this.completeAll(shareId, ready).finally(() => {
      this.busy.delete(shareId);
      this.check(shareId);
    });
  }

  private async completeAll(shareId: string, ready: Waiting<M>[]): Promise<void> {
    let rest = ready;
    // A file of the share that ended delivered or unknown (and is not being completed again
    // now) came with a message that had, or may have had, the comment.
    let commented = this.host
      .members(shareId)
      .some(
        (m) =>
          (m.item.state === 'delivered' || m.item.state === 'unknown') &&
          !ready.some((w) => w.member.item.id === m.item.id),
      );
    for (;;) {
      // A file cancelled while an earlier group of its share completed has left already.
      const share = this.waiting.get(shareId);
      rest = rest.filter((w) => share?.get(w.member.item.id) === w);
      if (rest.length === 0) return;
      const group = rest.slice(0, MAX_FILES_PER_COMPLETION);
      rest = rest.slice(MAX_FILES_PER_COMPLETION);
      for (const w of group) w.completing = true;
      const run: CompletionRun = {
        controller: new AbortController(),
        bodySent: false,
        withComment: !commented,
      };
      this.running.add(run);
      try {
        const results = await this.host.complete(
          group.map((w) => w.member),
          run,
        );
        if (results.some((r) => r.kind === 'delivered' || r.kind === 'unknown')) commented = true;
        for (const [i, w] of group.entries()) {
          this.leave(shareId, w.member.item.id);
          w.resolve(results[i] ?? { kind: 'cancelled' });
        }
      } catch (error) {
        for (const w of group) {
          this.leave(shareId, w.member.item.id);
          w.reject(error);
        }
      } finally {
        this.running.delete(run);
      }
    }
  }

  private leave(shareId: string, id: string): void {
    const share = this.waiting.get(shareId);
    share?.delete(id);
    if (share?.size === 0) this.waiting.delete(shareId);
  }
}
