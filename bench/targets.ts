// Where the clients send: the plain sink, or the reference service (fresh data folder for every
// run, deleted afterwards, so a 2 GiB run does not leave 2 GiB behind). After each run the
// target confirms the bytes arrived: a client that says "ok" but sent nothing does not count.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type ReferenceService, startReferenceService } from '../test/reference-service/server';
import { type Sink, type SinkRequest, startSink } from './sink';

export type TargetName = 'sink' | 'service' | 'link';

/** The throttled sink's speed: a 1 Gbit/s link, the common wired office or home network. */
const LINK_BYTES_PER_SECOND = 1e9 / 8;

export const TARGET_LABELS: Record<TargetName, string> = {
  sink: 'sink',
  service: 'reference service',
  link: 'sink at 1 Gbit/s',
};

export interface Expected {
  sizes: number[];
  protocol: 'files.upload' | 'external';
}

export interface Target {
  name: TargetName;
  /** Readies the target for one run and returns its base URL. */
  begin(): Promise<string>;
  /** Checks what arrived and frees what the run stored; returns why the run does not count. */
  end(expected: Expected): Promise<string | undefined>;
  close(): Promise<void>;
  /** The sink's record of the requests since begin() (sink targets only). */
  requests?(): SinkRequest[];
}

/** Largest multipart overhead accepted around a file's bytes (boundaries, headers, fields). */
const MAX_OVERHEAD = 64 * 1024;

function sameSizes(got: number[], want: number[], slack: number): boolean {
  if (got.length !== want.length) return false;
  const a = [...got].sort((x, y) => x - y);
  const b = [...want].sort((x, y) => x - y);
  return a.every((v, i) => v >= b[i]! && v - b[i]! <= slack);
}

export async function sinkTarget(name: 'sink' | 'link' = 'sink'): Promise<Target> {
  const sink: Sink = await startSink(
    name === 'link' ? { bytesPerSecond: LINK_BYTES_PER_SECOND } : {},
  );
  return {
    name,
    begin: async () => {
      sink.reset();
      return sink.url;
    },
    end: async (expected) => {
      const method = expected.protocol === 'external' ? 'upload' : 'files.upload';
      const bodies = sink
        .requests()
        .filter((r) => r.method === method)
        .map((r) => r.bodyBytes);
      if (!sameSizes(bodies, expected.sizes, MAX_OVERHEAD)) {
        return `the sink received ${bodies.length} bodies (${bodies.join(', ')} bytes), expected ${expected.sizes.length}`;
      }
      return undefined;
    },
    close: () => sink.close(),
    requests: () => sink.requests(),
  };
}

export interface ServiceAccount {
  token: string;
  user: string;
  channel: string;
}

export async function serviceTarget(workDir: string, account: ServiceAccount): Promise<Target> {
  let service: ReferenceService | undefined;
  let dataDir: string | undefined;
  const stop = async () => {
    await service?.close();
    service = undefined;
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  };
  return {
    name: 'service',
    begin: async () => {
      await stop();
      dataDir = await mkdtemp(join(workDir, 'service-data-'));
      service = await startReferenceService({
        dataDir,
        config: {
          tokens: { [account.token]: { user: account.user, channels: [account.channel] } },
          channels: [account.channel],
          // The 2 GiB case must not be refused by the default 1 GiB limit.
          maxFileBytes: 64 * 2 ** 30,
          uploadsPerMinute: 0,
        },
      });
      return service.url;
    },
    end: async (expected) => {
      const got = service?.uploads().map((u) => u.size) ?? [];
      await stop();
      if (!sameSizes(got, expected.sizes, 0)) {
        return `the service recorded ${got.length} uploads (${got.join(', ')} bytes), expected ${expected.sizes.length}`;
      }
      return undefined;
    },
    close: stop,
  };
}
