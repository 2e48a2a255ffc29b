// Connections reused over TLS: the reference service serves https with a self-signed
// certificate, the client trusts it as it would Slack's (the CLI through NODE_EXTRA_CA_CERTS,
// the app's core through Node's default CA list), and the service counts the TLS handshakes it
// completed. A share pays one handshake per connection it keeps, not one per request, and a
// second share from the same running app pays none.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../cli/run-cli';
import { makeFile, openApp, sharedCounts, type TestFile, TOKEN } from '../external/helpers';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { TEST_CERT_PATH, testTls } from '../reference-service/tls';

// Node 22.19+ (https://nodejs.org/api/tls.html#tlssetdefaultcacertificatescerts); the
// installed @types/node predates them.
const { getCACertificates, setDefaultCACertificates } = tls as unknown as {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certs: string[]): void;
};

let dir: string;
let service: ReferenceService;
const defaultCAs = getCACertificates('default');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-tls-reuse-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    tls: testTls(),
    config: { uploadsPerMinute: 0 },
  });
  setDefaultCACertificates([...defaultCAs, testTls().cert.toString()]);
});

afterAll(async () => {
  setDefaultCACertificates(defaultCAs);
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function saveConcurrency(dataDir: string, concurrency: number): Promise<void> {
  const app = await openApp({ dataDir });
  try {
    await app.setPreferences({ concurrency });
  } finally {
    await app.close();
  }
}

async function smallFiles(prefix: string, n: number): Promise<TestFile[]> {
  const files: TestFile[] = [];
  for (let i = 0; i < n; i++)
    files.push(await makeFile(join(dir, prefix), `${prefix}${i}.png`, 20_000));
  return files;
}

function send(dataDir: string, files: TestFile[], protocol: 'files.upload' | 'external') {
  return runCli(
    [
      'send',
      '--base-url',
      service.url,
      '--protocol',
      protocol,
      '--channels',
      'C0GENERAL',
      '--json',
    ].concat(files.map((f) => f.path)),
    {
      env: {
        TRAYSHARE_DATA_DIR: dataDir,
        TRAYSHARE_TOKEN: TOKEN,
        NODE_EXTRA_CA_CERTS: TEST_CERT_PATH,
      },
    },
  );
}

describe('TLS connections kept between requests', () => {
  it('the service is https and a client that does not trust it is refused', async () => {
    expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const [file] = await smallFiles('untrusted', 1);
    const run = await runCli(
      ['send', '--base-url', service.url, '--channels', 'C0GENERAL', '--json', file!.path],
      { env: { TRAYSHARE_DATA_DIR: join(dir, 'untrusted'), TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/certificate|secure connection/i);
    expect(service.uploads()).toEqual([]);
  });

  it('one slot: 20 small files through files.upload, ten at a time, one TLS handshake per connection, at most ten', async () => {
    const data = join(dir, 'one');
    await saveConcurrency(data, 1);
    const files = await smallFiles('one', 20);
    service.resetTraffic();
    const run = await send(data, files, 'files.upload');
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(20).fill('delivered'));
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(20).fill(1));
    // Ten small files fill the slot; the second ten reuse their connections, handshake and all.
    const t = service.traffic();
    expect(t.requests).toBe(20);
    expect(t.handshakes).toBe(t.connections);
    expect(t.connections).toBeLessThanOrEqual(10);
  });

  it('a share of 10 through the external protocol: 31 requests, one handshake per connection, at most 10', async () => {
    const data = join(dir, 'ten');
    const files = await smallFiles('ten', 10);
    service.resetTraffic();
    const run = await send(data, files, 'external');
    expect(run.code, run.stderr).toBe(0);
    expect(sharedCounts(service.uploads(), files)).toEqual(Array(10).fill(1));
    const t = service.traffic();
    // 10 upload addresses, 10 byte uploads, 1 completion, 10 files.info for the links.
    expect(t.requests).toBe(31);
    expect(t.handshakes).toBe(t.connections);
    expect(t.handshakes).toBeLessThanOrEqual(10);
  });

  it('two shares from the running app: the second opens no new TLS connection', async () => {
    const app = await openApp({ dataDir: join(dir, 'app') });
    try {
      const ws = await app.addWorkspace({
        name: 'Acme',
        baseUrl: service.url,
        protocol: 'external',
      });
      const share = async (files: TestFile[]) => {
        await app.share({
          target: { workspaceId: ws.id, channels: ['C0GENERAL'] },
          comment: 'over TLS',
          paths: files.map((f) => f.path),
        });
        await app.settled();
      };
      const first = await smallFiles('first', 3);
      service.resetTraffic();
      await share(first);
      const afterFirst = service.traffic();
      expect(afterFirst.handshakes).toBeGreaterThan(0);
      expect(afterFirst.handshakes).toBe(afterFirst.connections);
      const second = await smallFiles('second', 3);
      await share(second);
      const afterSecond = service.traffic();
      expect(afterSecond.requests).toBeGreaterThan(afterFirst.requests);
      expect(afterSecond.handshakes).toBe(afterFirst.handshakes);
      expect(sharedCounts(service.uploads(), [...first, ...second])).toEqual(Array(6).fill(1));
    } finally {
      await app.close();
    }
  });
});
