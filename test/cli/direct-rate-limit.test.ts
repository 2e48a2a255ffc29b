// A rate limit on `trayshare send --base-url` (no queue) is waited out within --max-wait, as
// docs/cli.md promises: waiting on a 429 does not use up a file's tries, and files that wait
// take the free places in the order they came. The built CLI against the reference service,
// whose clock runs fast so a minute's limit refills in seconds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
let dir: string;
const files: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-direct-limit-'));
  for (let i = 0; i < 40; i++) {
    files.push(join(dir, `limited-${String(i).padStart(2, '0')}.txt`));
    await writeFile(files[i]!, `file ${i}\n`);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('send --base-url under a rate limit', () => {
  // The two protocols run side by side: each test spends its time waiting on the service's
  // Retry-After, not on the CPU.
  it.concurrent.for(['files.upload', 'external'])(
    'delivers all 40 files once within --max-wait (%s, a burst of 30, then one a second)',
    { timeout: 120_000 },
    async (protocol, { expect }) => {
      // In real time: the burst of 30 goes at once, then one upload a second (60 a minute, so
      // Retry-After is 1 s and frees exactly one place), so the last 10 files wait about 10 s in
      // all, and each free place is raced for by every file that waits (a sped-up clock hides
      // the race: one Retry-After refills many places).
      const limited = await startReferenceService({
        dataDir: join(dir, `service-${protocol}`),
        config: { uploadsPerMinute: 60, uploadBurst: 30 },
      });
      try {
        const run = await runCli(
          [
            'send',
            '--base-url',
            limited.url,
            '--protocol',
            protocol,
            '--channels',
            'C0GENERAL',
            '--max-wait',
            '120',
            '--json',
            ...files,
          ],
          {
            env: { TRAYSHARE_TOKEN: TOKEN, TRAYSHARE_DATA_DIR: join(dir, `data-${protocol}`) },
            timeoutMs: 110_000,
          },
        );
        const lines = jsonLines(run.stdout);
        expect(lines.filter((l) => l.outcome !== 'delivered')).toEqual([]);
        expect(lines).toHaveLength(40);
        expect(run.code).toBe(0);
        // Each file once: waiting out the limit never sends a file twice.
        const names = limited.uploads().map((u) => u.name);
        expect(new Set(names).size).toBe(40);
        expect(names).toHaveLength(40);
        expect(run.stderr).toMatch(/rate limited by the service; next try in \d+ s/i);
      } finally {
        await limited.close();
      }
    },
  );
});
