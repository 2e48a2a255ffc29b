// Upload speed and time left, estimated from the progress updates the queue sends. The core
// reports bytes sent only, so speed is measured here, over a sliding window that smooths the
// bursts a socket's buffer produces.

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

export class RateMeter {
  private readonly samples = new Map<string, Sample[]>();

  /** Records `sent` bytes of item `id` at time `at`; a drop in `sent` means a new attempt. */
  record(id: string, sent: number, at: number): void {
    let list = this.samples.get(id) ?? [];
    const last = list.at(-1);
    if (last && sent < last.sent) list = [];
    const previous = list.at(-1);
    if (previous && previous.at === at) previous.sent = sent;
    else list.push({ at, sent });
    while (list.length > 2 && at - list[0]!.at > WINDOW_MS) list.shift();
    this.samples.set(id, list);
  }

  rate(id: string, size: number): Rate | undefined {
    const list = this.samples.get(id);
    if (!list || list.length < 2) return undefined;
    const first = list[0]!;
    const last = list.at(-1)!;
    const span = last.at - first.at;
    if (span < MIN_SPAN_MS) return undefined;
    const bytesPerSecond = ((last.sent - first.sent) * 1000) / span;
    if (bytesPerSecond <= 0) return { bytesPerSecond: 0, remainingMs: Number.POSITIVE_INFINITY };
    return { bytesPerSecond, remainingMs: ((size - last.sent) * 1000) / bytesPerSecond };
  }

  /** Forgets items that are no longer sending. */
  keepOnly(ids: ReadonlySet<string>): void {
    for (const id of this.samples.keys()) if (!ids.has(id)) this.samples.delete(id);
  }
}
