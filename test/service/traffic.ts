// What a client's requests looked like from the service's side: how many connections it opened
// (keep-alive reuses them) and how many requests it had open at once (a concurrency setting is
// kept). Test-only, like /_test/: Slack shows neither.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Traffic {
  /** TCP connections accepted. */
  connections: number;
  /** Requests to /api/ and upload URLs (the service's own /_test/ ones are not counted). */
  requests: number;
  /** The most of those requests open at one time: from their headers to the end of the answer. */
  peakInFlight: number;
}

export class TrafficCounter {
  private now: Traffic = { connections: 0, requests: 0, peakInFlight: 0 };
  private open = 0;

  connection(): void {
    this.now.connections++;
  }

  request(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith('/_test/')) return;
    this.now.requests++;
    this.open++;
    this.now.peakInFlight = Math.max(this.now.peakInFlight, this.open);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.open--;
    };
    res.once('finish', end);
    res.once('close', end);
  }

  read(): Traffic {
    return { ...this.now };
  }

  /** Starts counting afresh; requests still open stay counted as open. */
  reset(): void {
    this.now = { connections: 0, requests: 0, peakInFlight: this.open };
  }
}
