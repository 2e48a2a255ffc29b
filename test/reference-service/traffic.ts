// What a client's requests looked like from the service's side: how many connections it opened
// (keep-alive reuses them) and how many requests it had open at once (a concurrency setting is
// kept). Test-only, like /_test/: Slack shows neither.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Traffic {
  /** TCP connections accepted. */
  connections: number;
  /** TLS handshakes completed (https only; resumed sessions count too). */
  handshakes: number;
  /** Requests to /api/ and upload URLs (the service's own /_test/ ones are not counted). */
  requests: number;
  /** The most of those requests open at one time: from their headers to the end of the answer. */
  peakInFlight: number;
  /**
   * The same by kind: 'upload' for the bytes posted to upload URLs, else the API method
   * ('files.getUploadURLExternal'…). A concurrency setting bounds the uploads only.
   */
  peakOf: Record<string, number>;
  /** Requests by the same kinds. */
  countOf: Record<string, number>;
}

function kindOf(url: string): string {
  if (url.startsWith('/_upload/')) return 'upload';
  return /^\/api\/([^?/]+)/.exec(url)?.[1] ?? 'other';
}

export class TrafficCounter {
  private now: Traffic = {
    connections: 0,
    handshakes: 0,
    requests: 0,
    peakInFlight: 0,
    peakOf: {},
    countOf: {},
  };
  private open = 0;
  private readonly openOf = new Map<string, number>();

  connection(): void {
    this.now.connections++;
  }

  handshake(): void {
    this.now.handshakes++;
  }

  request(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith('/_test/')) return;
    this.now.requests++;
    this.open++;
    this.now.peakInFlight = Math.max(this.now.peakInFlight, this.open);
    const kind = kindOf(req.url ?? '');
    const ofKind = (this.openOf.get(kind) ?? 0) + 1;
    this.openOf.set(kind, ofKind);
    this.now.peakOf[kind] = Math.max(this.now.peakOf[kind] ?? 0, ofKind);
    this.now.countOf[kind] = (this.now.countOf[kind] ?? 0) + 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.open--;
      this.openOf.set(kind, (this.openOf.get(kind) ?? 1) - 1);
    };
    res.once('finish', end);
    res.once('close', end);
  }

  read(): Traffic {
    return { ...this.now, peakOf: { ...this.now.peakOf }, countOf: { ...this.now.countOf } };
  }

  /** Starts counting afresh; requests still open stay counted as open. */
  reset(): void {
    this.now = {
      connections: 0,
      handshakes: 0,
      requests: 0,
      peakInFlight: this.open,
      peakOf: Object.fromEntries([...this.openOf].filter(([, n]) => n > 0)),
      countOf: {},
    };
  }
}
