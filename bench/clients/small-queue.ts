// The app's path for a share of many files, as one process a person would wait for: the core
// opens (settings, journal, history), the share is journaled (fsynced) before any byte goes,
// each file is sent through the durable queue at the concurrency setting, its outcome
// journaled and written to history, until every file is delivered. A stand-in for the tray
// app's main process (Electron cannot run here), bundled by esbuild like it.
//
//   TRAYSHARE_TOKEN=… node small-queue.mjs <dataDir> <base URL> <channel> FILE…
//
// Prints one JSON line per file ({"outcome"}), as `trayshare send --json` does, and on stderr
// `share-ms N`: from the share to its last file's outcome, what a person at the running app
// waits (the process's start and the core's opening left out).
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../../test/harness/memory-secrets';

const [dataDir, url, channel, ...paths] = process.argv.slice(2);
const token = process.env.TRAYSHARE_TOKEN;
if (!dataDir || !url || !channel || paths.length === 0 || !token) {
  throw new Error('usage: TRAYSHARE_TOKEN=… small-queue <dataDir> <base URL> <channel> FILE…');
}

const app = await createAppService({
  dataDir,
  secrets: createMemorySecretStore(),
  transport: createNodeTransport({ client: 'app' }),
  tokenOverride: token,
});
try {
  const ws = await app.addWorkspace({ name: 'Bench', baseUrl: url });
  // Told as each file finishes (as the tray is), rather than asking for the whole list.
  const finished = new Map<string, string>();
  let wake = () => {};
  const stop = app.on('item-finished', (item) => {
    finished.set(item.id, item.state);
    wake();
  });
  const shared = performance.now();
  const { items } = await app.share({ target: { workspaceId: ws.id, channels: [channel] }, paths });
  while (!items.every((i) => finished.has(i.id))) {
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  stop();
  process.stderr.write(`share-ms ${(performance.now() - shared).toFixed(1)}\n`);
  for (const i of items)
    process.stdout.write(`${JSON.stringify({ outcome: finished.get(i.id) })}\n`);
} finally {
  await app.close();
}
