// `trayshare send --base-url` through files.upload goes as wide as the concurrency setting's byte
// budget allows, the same rule as the external protocol (byte-budget.ts): small files up to ten
// a slot, so a folder of small files is not sent three at a time. The built CLI against the
// reference service, which holds each upload until that many are open at once (its gather
// fault), so the count does not depend on timing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

let dir: string;
let service: ReferenceService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-direct-width-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});

afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('send --base-url, files.upload, many small files', () => {
  it('sends 21 small files at the default setting of 3: the first alone (its message first), then the other 20 all at once', async () => {
    const files: string[] = [];
    for (let i = 0; i < 21; i++) {
      files.push(join(dir, `small-${String(i).padStart(2, '0')}.txt`));
      await writeFile(files[i]!, `small file ${i}\n`);
    }
    // The first file goes alone (a rule of its own); the 20 behind it are held until all 20 are
    // open, or 5 s at most.
    service.injectFault({ method: 'files.upload', fault: { kind: 'slow', delayMs: 1 }, times: 1 });
    service.injectFault({
      method: 'files.upload',
      fault: { kind: 'gather', count: 20, maxWaitMs: 5000 },
      times: 20,
    });
    service.resetTraffic();
    const run = await runCli(
      ['send', '--base-url', service.url, '--channels', 'C0GENERAL', '--json', ...files],
      {
        env: { TRAYSHARE_TOKEN: 'xoxb-test-token', TRAYSHARE_DATA_DIR: join(dir, 'data') },
      },
    );
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(Array(21).fill('delivered'));
    expect(service.traffic().peakOf['files.upload']).toBe(20);
  });
});
