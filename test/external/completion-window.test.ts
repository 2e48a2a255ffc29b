// Between the journal's "completing" mark and the completion's first byte on the socket, a crash
// leaves a share "may have been delivered" even when the service never got its completion: the
// mark forbids sending it again. That window is kept to the mark's own write and fsync. Here
// the process is killed at the first journal write after the mark's fsync: whatever it still
// did between its mark and its request is cut there. Then the built CLI opens the same queue.
// A share whose completion never left must not be the outcome: the completion went out with
// the mark's fsync, so the service shared the files and the CLI finds them delivered.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueItem } from '../../main/core/model';
import { runCli } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { makeFile, sharedCounts, TOKEN } from './helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const driver = fileURLToPath(new URL('./crash-driver.ts', import.meta.url));

let root: string;
let service: ReferenceService;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-completion-window-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service.close();
  await rm(root, { recursive: true, force: true });
});

async function runDriverUntilKilled(config: object): Promise<void> {
  const configPath = join(root, 'driver.json');
  await writeFile(configPath, JSON.stringify(config));
  const child = spawn(process.execPath, ['--import', 'tsx', driver, configPath], {
    cwd: repo,
    env: { ...process.env, TRAYSHARE_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('exit', (_code, s) => {
      children.delete(child);
      resolve(s);
    });
  });
  if (signal !== 'SIGKILL') throw new Error(`the driver was not killed: ${stderr}`);
}

describe('the completion window', () => {
  it('killed at the first journal write after the "completing" mark was fsynced: the completion had already gone, so the CLI finds the share delivered, posted once, not "may have been delivered"', async () => {
    const files = [];
    for (const n of [1, 2, 3])
      files.push(await makeFile(join(root, 'files'), `m${n}.bin`, 16 * 1024));
    const dataDir = join(root, 'app');
    await runDriverUntilKilled({
      dataDir,
      baseUrl: service.url,
      channels: ['C0DESIGN'],
      paths: files.map((f) => f.path),
      killAt: 'after-completing-mark',
    });

    const run = await runCli(['queue', '--run', '--json'], {
      env: { TRAYSHARE_DATA_DIR: dataDir, TRAYSHARE_TOKEN: TOKEN },
      // Long enough for the CLI's whole share check (30 s) when the share is not found.
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const items = JSON.parse(run.stdout) as QueueItem[];
    expect(items.map((i) => [i.name, i.state, i.error?.code])).toEqual([
      ['m1.bin', 'delivered', undefined],
      ['m2.bin', 'delivered', undefined],
      ['m3.bin', 'delivered', undefined],
    ]);
    expect(sharedCounts(service.uploads(), files)).toEqual([1, 1, 1]);
    expect(service.messages().map((m) => m.files.length)).toEqual([3]);
    // On the old order (the mark, then "body complete" in a write and fsync of its own) the CLI
    // looked for shares for its whole window (30 s) before giving up.
  }, 90_000);
});
