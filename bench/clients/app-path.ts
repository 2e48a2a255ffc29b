// The app's path (issue 25): a share handed to the running core, as the Electron shell hands it
// (createAppService once, then share(request) per drop), until its first body bytes reach the
// sink. The sink stamps their arrival with the machine's clock (clock.ts); this prints
// the moments each share was handed over, one JSON line, and the bench pairs them up:
//   node app-path.mjs <dataDir> <sink URL> <file> <runs>
// Bundled by the bench like resting-core.ts, so the figures are the core's, not tsx's.
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../../test/harness/memory-secrets';
import { epochNow } from '../clock';

const TOKEN = 'xoxb-bench-token';

const [dataDir, url, file, runsText] = process.argv.slice(2);
if (!dataDir || !url || !file)
  throw new Error('usage: app-path <dataDir> <sink URL> <file> <runs>');
const runs = Number(runsText ?? 10);

const app = await createAppService({
  dataDir,
  secrets: createMemorySecretStore(),
  transport: createNodeTransport(),
  tokenOverride: TOKEN,
});
const ws = await app.addWorkspace({ name: 'Bench', baseUrl: url });
const share = () =>
  app.share({ target: { workspaceId: ws.id, channels: ['C0BENCH'] }, paths: [file] });

// One share first, as a running app has made before the one a person is waiting on; the bench
// leaves its sink record out (the first `warmUp` requests).
await share();
await app.settled();
const handedAt: number[] = [];
for (let i = 0; i < runs; i++) {
  // Let the previous share's after-work (history, journal compaction) finish, as between drops.
  await new Promise((r) => setTimeout(r, 50));
  handedAt.push(epochNow());
  await share();
  await app.settled();
}
await app.close();
process.stdout.write(`${JSON.stringify({ warmUp: 1, handedAt })}\n`);
