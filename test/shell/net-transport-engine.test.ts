// The net transport under the real upload engine, against the reference service. Electron's
// `net` cannot run here, so a stand-in with its semantics carries the bytes over Node's http:
// chunked body, write callbacks when a chunk is taken, redirects reported as a 'redirect' event
// (manual mode). Redirects themselves are tested in net-transport.test.ts: an early answer
// racing a write error resolves differently in Node (the error wins) than in Chromium (which
// reads the answer after a failed upload), so the stand-in cannot show Chromium's outcome.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientRequestConstructorOptions } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadOnce } from '../../main/core/upload/engine';
import {
  createNetTransport,
  type NetModule,
  type NetRequest,
} from '../../main/electron/net-transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

/** Electron's ClientRequest semantics over a real Node request. */
class NodeBackedNetRequest extends EventEmitter {
  chunkedEncoding = false;
  private readonly headers: Record<string, string> = {};
  private req: http.ClientRequest | undefined;
  constructor(private readonly options: ClientRequestConstructorOptions) {
    super();
  }
  setHeader(name: string, value: string) {
    if (['content-length', 'host', 'transfer-encoding'].includes(name.toLowerCase())) {
      throw new Error('net::ERR_INVALID_ARGUMENT');
    }
    this.headers[name] = value;
  }
  private start(): http.ClientRequest {
    if (this.req) return this.req;
    const req = http.request(this.options.url!, {
      method: this.options.method,
      headers: {
        ...this.headers,
        ...(this.chunkedEncoding ? { 'transfer-encoding': 'chunked' } : {}),
      },
      agent: false,
    });
    req.on('response', (res) => {
      if (
        res.statusCode &&
        res.statusCode >= 300 &&
        res.statusCode < 400 &&
        this.options.redirect === 'manual'
      ) {
        const headers: Record<string, string[]> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) headers[k] = [String(v)];
        this.emit(
          'redirect',
          res.statusCode,
          this.options.method,
          res.headers.location ?? '',
          headers,
        );
        return;
      }
      this.emit('response', Object.assign(res, { statusCode: res.statusCode ?? 0 }));
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      this.emit(
        'error',
        new Error(
          e.code === 'ECONNRESET' ? 'net::ERR_CONNECTION_RESET' : `net::ERR_FAILED ${e.message}`,
        ),
      ),
    );
    this.req = req;
    return req;
  }
  write(chunk: Buffer, _encoding?: string, callback?: () => void) {
    this.start().write(chunk, () => callback?.());
  }
  end(_chunk?: Buffer, _encoding?: string, callback?: () => void) {
    this.start().end(() => callback?.());
    return this;
  }
  abort() {
    this.req?.destroy();
  }
}

const net: NetModule = {
  request: (options) => new NodeBackedNetRequest(options) as unknown as NetRequest,
};

let dir: string;
let service: ReferenceService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-net-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: number): Promise<{ path: string; sha256: string }> {
  const data = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (i * 31) % 251;
  const path = join(dir, name);
  await writeFile(path, data);
  return { path, sha256: createHash('sha256').update(data).digest('hex') };
}

const job = (path: string, name: string) => ({
  baseUrl: service.url,
  token: 'xoxb-test-token',
  channels: ['C0GENERAL', 'C0DESIGN'],
  comment: 'via net',
  file: { path, name },
});

describe('net transport with the engine', () => {
  it('delivers a file whole, with progress, through a chunked body', async () => {
    const f = await file('three-mib.bin', 3 * 1024 * 1024 + 17);
    const progress: number[] = [];
    const result = await uploadOnce(job(f.path, 'three-mib.bin'), {
      transport: createNetTransport(net),
      onProgress: (sent) => progress.push(sent),
    });
    expect(result.kind).toBe('delivered');
    const recorded = service.uploads().at(-1)!;
    expect(recorded).toMatchObject({
      name: 'three-mib.bin',
      size: 3 * 1024 * 1024 + 17,
      sha256: f.sha256,
    });
    expect(recorded.channels).toEqual(['C0GENERAL', 'C0DESIGN']);
    expect(progress.at(-1)).toBe(3 * 1024 * 1024 + 17);
  });

  it('reports a reset in the middle of the body as retryable, with nothing recorded', async () => {
    // Larger than loopback's socket buffers (up to 4 MiB each way here), so the reset comes
    // while the body is still going out; a smaller body can be handed over whole before it.
    const f = await file('reset.bin', 32 * 1024 * 1024);
    const before = service.uploads().length;
    service.injectFault({ fault: { kind: 'reset-mid-body', afterBytes: 64 * 1024 } });
    const result = await uploadOnce(job(f.path, 'reset.bin'), {
      transport: createNetTransport(net),
    });
    expect(result.kind).toBe('failed');
    expect(result.kind === 'failed' && result.reason.class).toBe('transient');
    expect(service.uploads()).toHaveLength(before);
  });

  it('classifies the service’s own refusal', async () => {
    const f = await file('nope.txt', 10);
    const result = await uploadOnce(
      { ...job(f.path, 'nope.txt'), channels: ['C0SECRET'] },
      { transport: createNetTransport(net) },
    );
    expect(result).toMatchObject({ kind: 'failed', reason: { class: 'target' } });
  });
});
