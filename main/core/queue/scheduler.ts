// Which queued items start now, and when to look again. First in first out, within a budget of
// bytes in flight per workspace: the concurrency setting N is N slots of 8 MiB, a file takes its
// size's share of a slot (at least a tenth), so small files go up to 10 x N at once while large
// files go N at a time, and at 1 a large file goes strictly alone (the CLI's rule, one
// implementation: upload/external/byte-budget.ts). A file that does not fit waits, and those
// behind it in its workspace wait too, so a large file is never passed over by smaller ones.
// An item waiting out a backoff starts at its retryAt; a rate-limited workspace
// starts nothing until its pause ends, then one request goes first (a probe) and the rest once
// it passes; a workspace whose token was refused starts nothing until a new token is given;
// the tray's pause starts nothing at all. Items that could start but for a free slot are named
// to the caller (a share may prepare them: the external protocol's step 1 takes no slot), the
// next NAMED_AHEAD of each workspace.
// A pass reads no further than it must: once every workspace with items to start has no free
// slot left (and has named its next ones), is paused or waits for a token, the rest of the
// queue cannot start now, so a pass costs the slots and not the length of the queue. A waiting
// item behind a full workspace arms no wake-up: it could not start at its time anyway, and the
// item that frees a slot runs a pass, which then arms it.
import type { QueueItem } from '../model';
import type { Sleep } from '../sleep';
import { fitsBudget, type InFlight, slotsFor } from '../upload/external/byte-budget';

/**
 * Items named ahead per workspace beyond its free slots: the most step-1 requests a share has
 * open at once (delivery's gate), so asking ahead keeps that gate full and no more.
 */
const NAMED_AHEAD = 10;

export interface Pick {
  now: number;
  /** The concurrency setting: slots of bytes in flight per workspace; asked only when an item
   * could start. */
  limit: () => number;
  /** The tray's pause. */
  paused: boolean;
  /** A sending item that gave its slot back (it waits for the rest of its share). */
  holdsNoSlot: (item: QueueItem) => boolean;
  /** Told of each item that would start now but for a free slot (not for a probe). */
  noSlot?: (item: QueueItem) => void;
  /** The items sending now. */
  sending: Iterable<QueueItem>;
  /** How many workspaces have items queued or waiting. */
  workspaces: number;
}

export class Scheduler {
  private readonly rateLimitedUntil = new Map<string, number>();
  /** Workspaces back from a rate-limit pause: one request goes first, the rest once it passes. */
  private readonly probing = new Set<string>();
  private readonly tokenNeeded = new Set<string>();
  private wake: { at: number; controller: AbortController } | undefined;

  /** `onWake` runs when a waiting item or a paused workspace may go again. */
  constructor(
    private readonly sleep: Sleep,
    private readonly onWake: () => void,
  ) {}

  /**
   * The items to start now, in queue order (`entries`: the items not finished, in queue order);
   * arms the wake-up for the next one that waits.
   */
  pick<E extends { item: QueueItem }>(entries: Iterable<E>, p: Pick): E[] {
    const running = new Map<string, InFlight>();
    for (const item of p.sending) {
      if (!p.holdsNoSlot(item)) {
        const ws = running.get(item.workspaceId) ?? { files: 0, slots: 0 };
        ws.files++;
        ws.slots += slotsFor(item.size);
        running.set(item.workspaceId, ws);
      }
    }
    const start: E[] = [];
    // The limit is a setting: a pass with nothing to start does not read the settings.
    let limit: number | undefined;
    let nextWake = Number.POSITIVE_INFINITY;
    // Workspaces of which nothing more can start in this pass, and how many each has named.
    const done = new Set<string>();
    const named = new Map<string, number>();
    // Workspaces where a file did not fit: the files behind it wait their turn (first in, first
    // out), even a smaller one that would fit.
    const full = new Set<string>();
    for (const entry of entries) {
      if (done.size >= p.workspaces) break;
      const { item } = entry;
      if (item.state !== 'queued' && item.state !== 'waiting') continue;
      const ws = item.workspaceId;
      if (done.has(ws)) continue;
      if (this.tokenNeeded.has(ws)) {
        done.add(ws);
        continue;
      }
      // Waiting without a time: waits for a new token.
      if (item.state === 'waiting' && item.retryAt === undefined) continue;
      const limitedUntil = this.rateLimitedUntil.get(ws);
      if (limitedUntil !== undefined && limitedUntil > p.now) {
        nextWake = Math.min(nextWake, limitedUntil);
        done.add(ws);
        continue;
      }
      if (limitedUntil !== undefined) {
        this.rateLimitedUntil.delete(ws);
        this.probing.add(ws);
      }
      if (item.state === 'waiting' && item.retryAt !== undefined && item.retryAt > p.now) {
        nextWake = Math.min(nextWake, item.retryAt);
        continue;
      }
      if (p.paused) {
        done.add(ws);
        continue;
      }
      const inFlight = running.get(ws) ?? { files: 0, slots: 0 };
      limit ??= p.limit();
      const probing = this.probing.has(ws);
      const weight = slotsFor(item.size);
      // A probe goes alone, whatever its size.
      const fits =
        !full.has(ws) && (probing ? inFlight.files === 0 : fitsBudget(inFlight, weight, limit));
      if (!fits) {
        full.add(ws);
        const ahead = named.get(ws) ?? 0;
        if (probing || !p.noSlot || ahead >= NAMED_AHEAD) done.add(ws);
        else {
          named.set(ws, ahead + 1);
          p.noSlot(item);
        }
        continue;
      }
      running.set(ws, { files: inFlight.files + 1, slots: inFlight.slots + weight });
      start.push(entry);
    }
    this.scheduleWake(p.paused ? Number.POSITIVE_INFINITY : nextWake, p.now);
    return start;
  }

  /**
   * The service asked the workspace to wait until `until`. Requests that were in flight with
   * the one that met the limit join its pause rather than each lengthening it: the workspace
   * pauses once. Returns when the item may go again, and whether the pause is new (to journal).
   */
  rateLimited(
    workspaceId: string,
    until: number,
    now: number,
  ): { retryAt: number; isNew: boolean } {
    const current = this.rateLimitedUntil.get(workspaceId) ?? 0;
    const isNew = current <= now;
    if (isNew) this.rateLimitedUntil.set(workspaceId, until);
    return { retryAt: Math.max(until, current), isNew };
  }

  /** A request of the workspace went through: its probe, if any, passed. */
  passed(workspaceId: string): void {
    this.probing.delete(workspaceId);
  }

  /** Pauses read back from the journal. */
  restorePauses(pauses: Iterable<[string, number]>): void {
    for (const [ws, until] of pauses) this.rateLimitedUntil.set(ws, until);
  }

  pauses(): [string, number][] {
    return [...this.rateLimitedUntil];
  }

  /** Stops the workspace for a refused token; true the first time. */
  needToken(workspaceId: string): boolean {
    if (this.tokenNeeded.has(workspaceId)) return false;
    this.tokenNeeded.add(workspaceId);
    return true;
  }

  tokenGiven(workspaceId: string): void {
    this.tokenNeeded.delete(workspaceId);
  }

  needsToken(workspaceId: string): boolean {
    return this.tokenNeeded.has(workspaceId);
  }

  stop(): void {
    this.wake?.controller.abort();
    this.wake = undefined;
  }

  private scheduleWake(at: number, now: number): void {
    if (this.wake && this.wake.at === at) return;
    this.stop();
    if (!Number.isFinite(at)) return;
    const controller = new AbortController();
    const wake = { at, controller };
    this.wake = wake;
    this.sleep(Math.max(0, at - now), controller.signal).then(
      () => {
        if (this.wake !== wake || controller.signal.aborted) return;
        this.wake = undefined;
        this.onWake();
      },
      () => {},
    );
  }
}
