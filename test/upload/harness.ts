// Shared set-up for the engine's end-to-end tests: the reference service on 127.0.0.1, real
// files in a temp folder, and the real Node transport.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FailureReason } from '../../main/core/model';
import type { AttemptResult, UploadJob } from '../../main/core/upload/attempt';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport, TransportRequest } from '../../main/core/upload/transport';
import {
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../reference-service/server';

export const TOKEN = 'xoxb-test-token';
export const OTHER_TOKEN = 'xoxb-other-token';

export interface Harness {
  service: ReferenceService;
  dir: string;
  /** Every request the service saw on /api/, in order ("POST /api/files.upload"). */
  requests: string[];
  /** The real Node transport, counting what it was asked to send. */
  transport: Transport & { sent: TransportRequest[] };
  /** A file of `size` bytes with content that depends on `name`; returns its path and sha256. */
  file(name: string, size: number): Promise<{ path: string; sha256: string; size: number }>;
  job(path: string, name: string, over?: Partial<UploadJob>): UploadJob;
  /** Uploads the service recorded under this name. */
  recorded(name: string): ReturnType<ReferenceService['uploads']>;
  close(): Promise<void>;
}

/** Only loopback addresses go to the network; anything else is recorded and refused here. */
function loopbackOnly(inner: Transport): Transport & { sent: TransportRequest[] } {
  const sent: TransportRequest[] = [];
  return {
    sent,
    request(req) {
      sent.push(req);
      if (new URL(req.url).hostname !== '127.0.0.1') {
        return Promise.reject(new Error(`test transport: refusing to leave loopback (${req.url})`));
      }
      return inner.request(req);
    },
  };
}

export async function startHarness(
  opts: { config?: Partial<ServiceConfig>; now?: () => number } = {},
): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'trayshare-e2e-'));
  const requests: string[] = [];
  const service = await startReferenceService({
    dataDir: join(dir, 'service'),
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    log: (line) => {
      if (/^[A-Z]+ \/api\//.test(line)) requests.push(line);
    },
  });
  return {
    service,
    dir,
    requests,
    transport: loopbackOnly(createNodeTransport()),
    async file(name, size) {
      const content = Buffer.alloc(size);
      const seed = createHash('sha256').update(name).digest();
      for (let i = 0; i < size; i += seed.length)
        seed.copy(content, i, 0, Math.min(seed.length, size - i));
      const path = join(dir, `${createHash('sha1').update(name).digest('hex')}.bin`);
      await writeFile(path, content);
      return { path, size, sha256: createHash('sha256').update(content).digest('hex') };
    },
    job(path, name, over = {}) {
      return {
        baseUrl: service.url,
        token: TOKEN,
        channels: ['C0GENERAL'],
        file: { path, name },
        ...over,
      };
    },
    recorded(name) {
      return service.uploads().filter((u) => u.name === name);
    },
    async close() {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A second server standing where a redirect points; it counts whatever reaches it. */
export async function startCountingServer(): Promise<{
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.end('{"ok":true}');
  });
  server.on('connection', () => {
    hits++;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A sleep that returns at once and remembers what was asked: Retry-After checked without waiting. */
export function recordingSleep(onSleep?: (ms: number) => void) {
  const slept: number[] = [];
  return {
    slept,
    sleep: async (ms: number) => {
      slept.push(ms);
      onSleep?.(ms);
    },
  };
}

/** The reason of a failed or unknown outcome; any other outcome fails the test. */
export function reasonOf(result: AttemptResult): FailureReason {
  if (result.kind === 'failed' || result.kind === 'unknown') return result.reason;
  throw new Error(`expected a failure, got ${result.kind}`);
}
