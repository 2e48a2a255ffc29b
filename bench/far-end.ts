// The bench's side of far-end-worker.ts: start and stop the reference service on its own thread,
// and hear when it posts a share's message. tsx's loader hooks, registered by the bench's
// `tsx` command line, reach the worker through the execArgv it inherits, so the worker runs
// the service's TypeScript as the bench does.
import { Worker } from 'node:worker_threads';
import type { StartOptions } from '../test/reference-service/server';

/** What the worker's service takes: everything but the functions, which cannot cross threads. */
type FarEndOptions = Omit<StartOptions, 'log' | 'now'>;

export type FarEndRequest =
  | { id: number; op: 'start'; options: FarEndOptions }
  | { id: number; op: 'stop' };

export type FarEndReply = { id: number; error?: string; port?: number } & Partial<ServiceSummary>;

export interface ServiceSummary {
  /** The messages the service posted, each with its count of files. */
  messages: { files: number }[];
  /** TLS handshakes it completed. */
  handshakes: number;
}

export interface FarEnd {
  /** Starts a service; `onMessage` gets the epoch ms of each message it posts. */
  start(options: FarEndOptions, onMessage: (at: number) => void): Promise<number>;
  /** Stops the running service and says what it saw. */
  stop(): Promise<ServiceSummary>;
  close(): Promise<void>;
}

export async function startFarEnd(): Promise<FarEnd> {
  const worker = new Worker(new URL('./far-end-worker.ts', import.meta.url));
  const waiting = new Map<number, (reply: FarEndReply) => void>();
  let onMessage: ((at: number) => void) | undefined;
  let next = 0;
  worker.on('message', (m: FarEndReply | { event: 'message-posted'; at: number }) => {
    if ('event' in m) onMessage?.(m.at);
    else waiting.get(m.id)?.(m);
  });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  failed.catch(() => {});
  const ask = async (req: FarEndRequest): Promise<FarEndReply> => {
    const reply = await Promise.race([
      new Promise<FarEndReply>((resolve) => {
        waiting.set(req.id, resolve);
        worker.postMessage(req);
      }),
      failed,
    ]);
    waiting.delete(req.id);
    if (reply.error) throw new Error(`far end: ${reply.error}`);
    return reply;
  };
  return {
    start: async (options, listener) => {
      onMessage = listener;
      const reply = await ask({ id: next++, op: 'start', options });
      return reply.port!;
    },
    stop: async () => {
      const reply = await ask({ id: next++, op: 'stop' });
      onMessage = undefined;
      return { messages: reply.messages ?? [], handshakes: reply.handshakes ?? 0 };
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
