// A process the crash test can SIGKILL: opens the queue over a data folder with the real engine,
// queues the given files (first run only), works until idle and prints the queue as JSON.
//   node --import tsx test/queue/crash-driver.ts <config.json>
// config: { dataDir, baseUrl, channels, paths?: string[], slowBodyMs?: number }; the token comes
// from the environment (TRAYSHARE_TEST_TOKEN), never from argv. slowBodyMs pauses before each
// body chunk, so a kill can find a file cut off mid-body.
import { readFile } from 'node:fs/promises';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { allFinished } from './finished';
import { openRealQueue, slowBodyTransport } from './helpers';

interface DriverConfig {
  dataDir: string;
  baseUrl: string;
  channels: string[];
  paths?: string[];
  slowBodyMs?: number;
}

async function main(): Promise<void> {
  const configPath = process.argv[2];
  if (!configPath) throw new Error('usage: crash-driver.ts <config.json>');
  const config = JSON.parse(await readFile(configPath, 'utf8')) as DriverConfig;
  const token = process.env.TRAYSHARE_TEST_TOKEN;
  if (!token) throw new Error('TRAYSHARE_TEST_TOKEN is not set');

  const q = await openRealQueue({
    dir: config.dataDir,
    baseUrl: config.baseUrl,
    token: () => token,
    // One slot: the queue takes files by bytes in flight, ten small files to a slot, and the
    // crash is placed mid-run, with files delivered, files still to start and files under way.
    // At one slot this run's small files still go in rounds, as they did three at a time when
    // the setting counted files; at three slots (30 small files) they would all go at once.
    queue: { concurrency: () => 1 },
    ...(config.slowBodyMs
      ? { transport: slowBodyTransport(createNodeTransport(), config.slowBodyMs) }
      : {}),
  });
  if (config.paths) {
    const { refused } = await q.queue.enqueue({
      workspaceId: 'W1',
      channels: config.channels,
      comment: 'crash test',
      paths: config.paths,
    });
    if (refused.length > 0) throw new Error(`refused: ${JSON.stringify(refused)}`);
    process.stderr.write('queued\n');
  }
  await allFinished(q.queue);
  const items = q.queue.list();
  await q.close();
  process.stdout.write(`${JSON.stringify(items)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
