// The far end of bench/link-share.ts's link, on a thread of its own: the reference service that
// stands in for Slack's servers. On a real link Slack's servers decrypt, hash and store a share
// on their own machines while the network carries the next bytes; in the bench's own thread
// the service's TLS, SHA-256 and file writes held up the latency proxies' timers (every chunk
// in both directions) and so added delay no network has. Here the proxies keep the bench's
// thread and the service runs beside them. Started by far-end.ts; one service at a time.
import { parentPort } from 'node:worker_threads';
import {
  type ReferenceService,
  type StartOptions,
  startReferenceService,
} from '../test/reference-service/server';
import type { FarEndReply, FarEndRequest } from './far-end';

const port = parentPort;
if (!port) throw new Error('far-end-worker.ts runs as a worker thread (far-end.ts starts it)');

let service: ReferenceService | undefined;

/** Epoch ms, on the same clock as the clients' mark-start.cjs lines. */
const epochNow = () => performance.timeOrigin + performance.now();

async function handle(req: FarEndRequest): Promise<FarEndReply> {
  if (req.op === 'start') {
    const opts: StartOptions = {
      ...req.options,
      log: (line) => {
        if (/^message \S+ with \d+ file/.test(line)) {
          port?.postMessage({ event: 'message-posted', at: epochNow() });
        }
      },
    };
    service = await startReferenceService(opts);
    return { id: req.id, port: service.port };
  }
  const s = service;
  service = undefined;
  if (!s) return { id: req.id, error: 'no service is running' };
  const summary = {
    messages: s.messages().map((m) => ({ files: m.files.length })),
    handshakes: s.traffic().handshakes,
  };
  await s.close();
  return { id: req.id, ...summary };
}

port.on('message', (req: FarEndRequest) => {
  handle(req).then(
    (reply) => port.postMessage(reply),
    (err: unknown) => port.postMessage({ id: req.id, error: String(err) }),
  );
});
