// The upload host, kept warm for the running app's next share. Slack's upload_url is on another
// host than its API (files.slack.com for slack.com in the method's example answer:
// slack-ruby/slack-api-ref methods/files/files.getUploadURLExternal.json), so here the
// reference service names its upload addresses at another origin (a plain TCP forwarder on
// another port, with the TLS still ended by the service, which counts every handshake).
//
// A share minutes after the last one finds the kept connections closed (node-transport.ts
// IDLE_MS); when the share sheet opens, prepareShare opens the connections the share will use,
// to the API host and to the upload host learnt from the last share, and the share then makes
// no TLS handshake of its own.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { jsonLines, runCli } from '../cli/run-cli';
import { makeFile, openApp, sharedCounts, type TestFile, TOKEN } from '../external/helpers';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { TEST_CERT_PATH, testTls } from '../reference-service/tls';

// Node 22.19+ (https://nodejs.org/api/tls.html#tlssetdefaultcacertificatescerts), as in
// tls-reuse.test.ts: the process trusts the test certificate as it trusts Slack's.
const { getCACertificates, setDefaultCACertificates } = tls as unknown as {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certs: string[]): void;
};
const defaultCAs = getCACertificates('default');

/** The kept connections' idle limit (node-transport.ts IDLE_MS), and a little more. */
const AFTER_IDLE_MS = 4600;

let dir: string;
let service: ReferenceService;
let apiBase: string;
/** Connections accepted by the upload host's forwarder. */
let uploadHostConnections = 0;
/** When the forwarder accepted each, and when the service logged each request (performance.now()). */
let acceptedAt: number[] = [];
let logged: { at: number; line: string }[] = [];
const open = new Set<Socket>();
const forwarder = createServer((client) => {
  uploadHostConnections++;
  acceptedAt.push(performance.now());
  const upstream = connect(service.port, '127.0.0.1');
  for (const s of [client, upstream]) {
    open.add(s);
    s.once('close', () => open.delete(s));
    s.on('error', () => {});
  }
  client.pipe(upstream).pipe(client);
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-upload-host-'));
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  const uploadPort = (forwarder.address() as AddressInfo).port;
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    tls: testTls(),
    // upload_url and permalinks at the forwarder: another origin, the same certificate (127.0.0.1).
    publicUrl: `https://127.0.0.1:${uploadPort}`,
    config: { uploadsPerMinute: 0 },
    log: (line) => logged.push({ at: performance.now(), line }),
  });
  apiBase = `https://127.0.0.1:${service.port}`;
  setDefaultCACertificates([...defaultCAs, testTls().cert.toString()]);
});

afterAll(async () => {
  setDefaultCACertificates(defaultCAs);
  for (const s of open) s.destroy();
  await new Promise<void>((resolve) => forwarder.close(() => resolve()));
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function files(prefix: string, n: number): Promise<TestFile[]> {
  const out: TestFile[] = [];
  for (let i = 0; i < n; i++)
    out.push(await makeFile(join(dir, prefix), `${prefix}${i}.png`, 20_000));
  return out;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

it('the share sheet warms the API host and the upload host: the next share, after the kept connections closed, makes no handshake of its own', async () => {
  const app: AppService = await openApp({ dataDir: join(dir, 'app') });
  try {
    const ws = await app.addWorkspace({ name: 'Acme', baseUrl: apiBase, protocol: 'external' });
    const share = async (these: TestFile[]) => {
      await app.share({
        target: { workspaceId: ws.id, channels: ['C0GENERAL'] },
        paths: these.map((f) => f.path),
      });
      await app.settled();
    };
    // The first share: its byte uploads go to the upload host, which the app learns.
    const first = await files('first', 3);
    await share(first);
    expect(uploadHostConnections).toBeGreaterThan(0);
    // Minutes later, as far as the kept connections go: they have closed.
    await new Promise((resolve) => setTimeout(resolve, AFTER_IDLE_MS));

    uploadHostConnections = 0;
    service.resetTraffic();
    const second = await files('second', 3);
    await app.prepareShare(ws.id, second.length);
    // Three connections to each host, their handshakes done before any request.
    await until(() => service.traffic().handshakes === 6);
    expect(service.traffic()).toMatchObject({ handshakes: 6, connections: 6, requests: 0 });
    expect(uploadHostConnections).toBe(3);

    await share(second);
    const t = service.traffic();
    // 3 upload addresses, 3 byte uploads, 1 completion, 3 files.info: over the warm connections.
    expect(t.requests).toBe(10);
    expect(t.countOf.upload).toBe(3);
    expect(t).toMatchObject({ handshakes: 6, connections: 6 });
    expect(uploadHostConnections).toBe(3);
    expect(sharedCounts(service.uploads(), [...first, ...second])).toEqual(Array(6).fill(1));
  } finally {
    await app.close();
  }
});

it('prepareShare opens nothing for a workspace it does not know', async () => {
  const app = await openApp({ dataDir: join(dir, 'unknown') });
  try {
    service.resetTraffic();
    uploadHostConnections = 0;
    await app.prepareShare('no-such-workspace', 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(service.traffic().connections).toBe(0);
    expect(uploadHostConnections).toBe(0);
  } finally {
    await app.close();
  }
});

/** `trayshare send` of these files on the external protocol, over TLS, with its own data folder. */
function sendToUploadHost(data: string, paths: string[]) {
  return runCli(
    [
      'send',
      '--base-url',
      apiBase,
      '--protocol',
      'external',
      '--channels',
      'C0GENERAL',
      '--json',
    ].concat(paths),
    {
      env: {
        TRAYSHARE_DATA_DIR: data,
        TRAYSHARE_TOKEN: TOKEN,
        NODE_EXTRA_CA_CERTS: TEST_CERT_PATH,
      },
    },
  );
}

it('trayshare send keeps the upload host it learnt, and the next send opens its connections there at its start, before its first request', async () => {
  const data = join(dir, 'cli');
  const send = async (prefix: string) => {
    const these = await files(prefix, 3);
    acceptedAt = [];
    logged = [];
    const run = await sendToUploadHost(
      data,
      these.map((f) => f.path),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(3).fill('delivered'));
    const firstAsk = logged.find((l) => l.line.includes('files.getUploadURLExternal'))?.at;
    expect(firstAsk).toBeDefined();
    expect(acceptedAt.length).toBeGreaterThan(0);
    return { firstAsk: firstAsk!, firstUploadConnection: Math.min(...acceptedAt) };
  };
  // The first send learns the upload host from its step-1 answers, then connects there.
  const first = await send('cli-first');
  expect(first.firstUploadConnection).toBeGreaterThan(first.firstAsk);
  const kept = JSON.parse(await readFile(join(data, 'upload-hosts.json'), 'utf8'));
  expect(kept).toEqual({ [apiBase]: service.url });
  // The next one connects there from its entry, while the CLI still loads. Its step-1 answers
  // are held 1.5 s, so a connection made only after them would come at least that late.
  service.injectFault({
    fault: { kind: 'slow', delayMs: 1500 },
    method: 'files.getUploadURLExternal',
    times: 3,
  });
  const second = await send('cli-second');
  expect(second.firstUploadConnection).toBeLessThan(second.firstAsk + 1000);
});

it('an upload host that refused the bytes is not learnt: trayshare send keeps no upload-hosts.json after step 2 failed', async () => {
  const data = join(dir, 'cli-refused');
  // Step 1 answers with an address at the upload host; step 2 there is refused (HTTP 403, not
  // retried), so no byte upload to that host ever succeeded.
  service.injectFault({ fault: { kind: 'status', status: 403 }, method: 'upload', times: 1 });
  const [one] = await files('refused', 1);
  const run = await sendToUploadHost(data, [one!.path]);
  expect(jsonLines(run.stdout).map((l) => l.error)).toEqual(['http_403']);
  await expect(readFile(join(data, 'upload-hosts.json'), 'utf8')).rejects.toMatchObject({
    code: 'ENOENT',
  });
});
