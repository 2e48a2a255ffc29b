// The core's resting cost, standing in for the tray app's main process (Electron cannot run
// here): createAppService over a data folder holding a 5000-entry history and a 200-item
// paused queue. The bench bundles it (esbuild, like the app's main process) and runs it in two
// steps, so the measured start is a fresh process:
//   node resting-core.mjs seed <dataDir> <sink URL>
//   node --expose-gc resting-core.mjs measure <dataDir> <sink URL>
// "measure" prints one JSON line (goals.ts RestingCore); heap is measured after a full GC.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppService } from '../../main/core/app-service';
import { HISTORY_FILE } from '../../main/core/history/history-store';
import type { HistoryEntry } from '../../main/core/model';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../../test/harness/memory-secrets';

const HISTORY_ENTRIES = 5000;
const QUEUE_ITEMS = 200;
const UPLOADS = 100;
const TOKEN = 'xoxb-bench-token';

const [mode, dataDir, url] = process.argv.slice(2);
if (!dataDir || !url || (mode !== 'seed' && mode !== 'measure' && mode !== 'start')) {
  throw new Error('usage: resting-core seed|start|measure <dataDir> <sink URL>');
}

const secrets = createMemorySecretStore();
const open = () =>
  createAppService({ dataDir, secrets, transport: createNodeTransport(), tokenOverride: TOKEN });

async function seed(): Promise<void> {
  const app = await open();
  const ws = await app.addWorkspace({ name: 'Bench', baseUrl: url! });
  await app.setPaused(true);
  const filesDir = join(dataDir!, 'files');
  await mkdir(filesDir, { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < QUEUE_ITEMS; i++) {
    const path = join(filesDir, `queued-${i}.txt`);
    await writeFile(path, `queued file ${i}\n`.repeat(64));
    paths.push(path);
  }
  await app.share({ target: { workspaceId: ws.id, channels: ['C0BENCH'] }, paths });
  await app.close();
  // History as the store writes it: one JSON line per finished upload.
  const now = Date.now();
  const lines: string[] = [];
  for (let i = 0; i < HISTORY_ENTRIES; i++) {
    const entry: HistoryEntry = {
      id: `h${i}`,
      at: now - (HISTORY_ENTRIES - i) * 60_000,
      workspaceId: ws.id,
      workspaceName: 'Bench',
      channels: ['C0BENCH', 'C0DESIGN'],
      comment: i % 3 === 0 ? `Weekly report ${i}, as discussed` : '',
      path: `/home/person/Documents/reports/report-${i}.pdf`,
      name: `report-${i}.pdf`,
      size: 100_000 + i,
      outcome: i % 20 === 0 ? 'failed' : 'delivered',
      ...(i % 20 === 0
        ? {
            error: {
              class: 'transient',
              code: 'connection_reset',
              message: 'The connection was closed unexpectedly.',
            },
          }
        : { permalink: `https://example.invalid/files/${i}`, fileId: `F${i}` }),
    } as HistoryEntry;
    lines.push(JSON.stringify(entry));
  }
  await writeFile(join(dataDir!, 'state', 'history', HISTORY_FILE), `${lines.join('\n')}\n`);
}

function memory(): { rssMB: number; heapMB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rssMB: m.rss / 1e6, heapMB: m.heapUsed / 1e6 };
}

/** createAppService's wall and CPU time, ms. */
async function timedOpen() {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const app = await open();
  const startMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { app, startMs, startCpuMs: (used.user + used.system) / 1000 };
}

/** Only the start, for more samples of it: prints { startMs, startCpuMs }. */
async function start(): Promise<void> {
  const { app, startMs, startCpuMs } = await timedOpen();
  await app.close();
  process.stdout.write(`${JSON.stringify({ startMs, startCpuMs })}\n`);
}

async function measure(): Promise<void> {
  const { app, startMs, startCpuMs } = await timedOpen();
  const history = await app.listHistory({});
  const queued = await app.listQueue();
  await new Promise((r) => setTimeout(r, 1000));
  const settled = memory();
  // Send the first UPLOADS of the queue, then stop and settle again.
  await app.setPaused(false);
  for (;;) {
    const items = await app.listQueue();
    if (items.filter((i) => i.state === 'delivered').length >= UPLOADS) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await app.setPaused(true);
  await new Promise((r) => setTimeout(r, 1000));
  const after = memory();
  await app.close();
  process.stdout.write(
    `${JSON.stringify({
      historyEntries: history.length,
      queueItems: queued.length,
      startMs,
      startCpuMs,
      settledRssMB: settled.rssMB,
      settledHeapMB: settled.heapMB,
      uploads: UPLOADS,
      afterUploadsRssMB: after.rssMB,
      afterUploadsHeapMB: after.heapMB,
    })}\n`,
  );
}

await (mode === 'seed' ? seed() : mode === 'start' ? start() : measure());
