// `npx tsx bench/log-cost.ts`: what a log line costs (electron-log's file transport writes each
// line synchronously, through the redaction hook, with rotation at 1 MB), and what "Copy
// diagnostics" pays to read the last 50 lines across the current and rotated files.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileLog } from '../main/core/log/file-log';

const LINES = 20_000;
const line =
  'Share 1a2b3c4d via external, 2 files to 1 channel: 2 delivered (a .png of 2.1 MB, a .txt of 12 bytes)';

const dir = await mkdtemp(join(tmpdir(), 'trayshare-log-cost-'));
try {
  const log = openFileLog({ dir, name: 'trayshare.log' });
  for (let i = 0; i < 500; i++) log.info(line); // warm up: JIT, the file opened
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < LINES; i++) log.info(line);
  const wallUs = ((performance.now() - start) * 1000) / LINES;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / LINES;
  const tailStart = performance.now();
  const tail = await log.tail(50);
  const tailMs = performance.now() - tailStart;
  process.stdout.write(
    `${LINES} lines of ${line.length} characters: ${wallUs.toFixed(1)} µs wall, ${cpuUs.toFixed(1)} µs CPU a line (rotating at 1 MB)\n` +
      `tail(${tail.length}) across trayshare.log and trayshare.old.log: ${tailMs.toFixed(1)} ms\n`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
