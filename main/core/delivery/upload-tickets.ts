// Upload addresses (the external protocol's step 1) asked for while a share's files wait for a
// byte slot in the queue. The concurrency setting bounds the byte uploads, what uses the
// person's bandwidth; step 1 is a small API request, so a share asks for its waiting files'
// addresses at once, at most STEP_ONE_IN_FLIGHT open (its files' own step-1 requests go through
// the same gate), and each file's bytes go as soon as the queue gives it a slot.
//
// Kept in memory only: step 1 shares nothing, so an address lost in a crash or a restart costs
// one new step 1 (the service discards an address never completed), and an upload address,
// which lets anyone holding it send bytes, never reaches the journal. The file stays "queued"
// ("waiting for a free slot") until its slot comes: nothing of it is sent before.
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { type Gate, gate } from '../upload/external/gate';
import {
  DEFAULT_UPLOAD_TTL_MS,
  STEP_ONE_IN_FLIGHT,
  type UploadTicket,
} from '../upload/external/request';

type Asked = UploadTicket | AttemptResult | undefined;

/** After an ask ahead failed, the share's files ask in their own slots for this long. */
const STOP_AFTER_FAILURE_MS = 60_000;

export class UploadTickets {
  private readonly byItem = new Map<string, { asked: Promise<Asked>; since: number }>();
  private readonly gates = new Map<string, Gate>();
  private readonly stopped = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The share's step-1 gate, looked up at each call: a gate is forgotten once nothing runs or
   * waits in it, and a holder of the old one must not open a second gate beside a new one.
   */
  gate(shareId: string): <T>(work: () => Promise<T>) => Promise<T> {
    return (work) => {
      let g = this.gates.get(shareId);
      if (!g) {
        g = gate(STEP_ONE_IN_FLIGHT);
        this.gates.set(shareId, g);
      }
      const mine = g;
      return mine(work).finally(() => {
        if (mine.busy() === 0 && this.gates.get(shareId) === mine) this.gates.delete(shareId);
      });
    };
  }

  /**
   * Asks ahead for a waiting item, once: `ask` runs step 1 through the share's gate. A failed
   * ask is the item's step-1 answer (its attempt reports it, so the queue's failure rules
   * apply), and the share's other files stop asking ahead for a while.
   */
  ahead(
    item: QueueItem,
    ask: (stepOneGate: <T>(work: () => Promise<T>) => Promise<T>) => Promise<Asked>,
  ): void {
    if (this.byItem.has(item.id)) return;
    const now = this.now();
    this.sweep(now);
    if ((this.stopped.get(item.shareId) ?? 0) > now) return;
    const asked = ask(this.gate(item.shareId)).then(
      (result) => {
        if (result !== undefined && 'kind' in result && result.kind !== 'cancelled') {
          this.stopped.set(item.shareId, this.now() + STOP_AFTER_FAILURE_MS);
        }
        return result;
      },
      () => undefined,
    );
    this.byItem.set(item.id, { asked, since: now });
  }

  /** What was asked ahead for this item, taken once (undefined: nothing was). */
  take(itemId: string): (() => Promise<Asked>) | undefined {
    const entry = this.byItem.get(itemId);
    if (!entry) return undefined;
    this.byItem.delete(itemId);
    let taken = false;
    return () => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      return entry.asked;
    };
  }

  /** Items cancelled or gone while they waited leave their address; it is of no use past the TTL. */
  private sweep(now: number): void {
    for (const [id, entry] of this.byItem) {
      if (now - entry.since > DEFAULT_UPLOAD_TTL_MS) this.byItem.delete(id);
    }
    for (const [shareId, until] of this.stopped) if (until <= now) this.stopped.delete(shareId);
  }
}
