// Upload speed and time left, estimated from the progress updates the queue sends. The core
// reports bytes sent only, so speed is measured here: bytes over the last few seconds of wall
// time (not per update), so it keeps moving between updates and falls when bytes stop.

interface Sample {
  at: number;
  sent: number;
}

export interface Rate {
  bytesPerSecond: number;
  remainingMs: number;
}

const WINDOW_MS = 4000;
const MIN_SPAN_MS = 500;
/** Without a byte for this long an upload reads "stalled"; shorter gaps are a socket's bursts. */
export const STALL_MS = 5000;

export class RateMeter {
  private readonly samples = new Map<string, Sample[]>();

  /** Records `sent` bytes of item `id` at time `at`; a drop in `sent` means a new attempt. */
  record(id: string, sent: number, at: number): void {
    let list = this.samples.get(id) ?? [];
    const last = list.at(-1);
    if (last && sent < last.sent) list = [];
    const previous = list.at(-1);
    // Only changes are kept: the newest sample's time is when bytes last moved.
    if (previous && previous.sent === sent) return;
    if (previous && previous.at === at) previous.sent = sent;
    else list.push({ at, sent });
    // Keep one sample from before the window so its start is always covered.
    while (list.length > 2 && at - list[1]!.at > WINDOW_MS) list.shift();
    this.samples.set(id, list);
  }

  rate(id: string, size: number, now: number): Rate | undefined {
    const list = this.samples.get(id);
    if (!list || list.length === 0) return undefined;
    const last = list.at(-1)!;
    if (now - last.at >= STALL_MS) return { bytesPerSecond: 0, remainingMs: Infinity };
    // The sent count at the window's start, interpolated between the samples around it.
    const from = Math.max(list[0]!.at, now - WINDOW_MS);
    const span = now - from;
    if (span < MIN_SPAN_MS || list.length < 2) return undefined;
    const sentAtFrom = sentAt(list, from);
    const bytesPerSecond = ((last.sent - sentAtFrom) * 1000) / span;
    if (bytesPerSecond <= 0) return undefined;
    return { bytesPerSecond, remainingMs: ((size - last.sent) * 1000) / bytesPerSecond };
  }

  /** Forgets items that are no longer sending. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.samples.keys()) if (!ids.has(id)) this.samples.delete(id);
  }

  /** Starts over for everything: after a pause, old samples would make the speed a lie. */
  reset(): void {
    this.samples.clear();
  }
}

function sentAt(list: readonly Sample[], at: number): number {
  for (let i = list.length - 1; i >= 0; i--) {
    const s = list[i]!;
    if (s.at <= at) {
      const next = list[i + 1];
      if (!next) return s.sent;
      return s.sent + ((next.sent - s.sent) * (at - s.at)) / (next.at - s.at);
    }
  }
  return list[0]!.sent;
}
