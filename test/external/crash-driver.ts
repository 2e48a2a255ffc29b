// A process the crash test SIGKILLs at a chosen point of the external protocol: the app's core
// (settings, durable queue, engine) with the CLI's state folder, so the built CLI can pick up
// where it died.
//   node --import tsx test/external/crash-driver.ts <config.json>
// config: { dataDir, baseUrl, channels, paths, killAt, concurrency? }; killAt is
// 'before-step-3', 'after-step-3', or 'second-upload' (just before the second file's bytes go,
// while the files after the first wait for a slot with their upload URLs asked for); the token
// is the test token (helpers.ts), never in argv.
import { readFile } from 'node:fs/promises';
import { CLI_STATE } from '../../main/cli/context';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';
import { openApp } from './helpers';

interface DriverConfig {
  dataDir: string;
  baseUrl: string;
  channels: string[];
  paths: string[];
  killAt: 'before-step-3' | 'after-step-3' | 'second-upload';
  /** The concurrency setting to share with (the app's default otherwise). */
  concurrency?: number;
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** The real transport, and a kill at step 3: before its first byte, or once it was answered. */
function killingTransport(killAt: DriverConfig['killAt']): Transport {
  const inner = createNodeTransport();
  let uploads = 0;
  return {
    async request(req) {
      if (killAt === 'second-upload') {
        if (!req.url.includes('/_upload/')) return inner.request(req);
        uploads += 1;
        return uploads === 2 ? die() : inner.request(req);
      }
      if (!req.url.endsWith('/api/files.completeUploadExternal')) return inner.request(req);
      if (killAt === 'before-step-3') die();
      await inner.request(req);
      return die();
    },
  };
}

async function main(): Promise<void> {
  const configPath = process.argv[2];
  if (!configPath) throw new Error('usage: crash-driver.ts <config.json>');
  const config = JSON.parse(await readFile(configPath, 'utf8')) as DriverConfig;
  const app = await openApp({
    dataDir: config.dataDir,
    stateName: CLI_STATE,
    transport: killingTransport(config.killAt),
  });
  if (config.concurrency !== undefined)
    await app.setPreferences({ concurrency: config.concurrency });
  const workspace = await app.addWorkspace({
    name: 'Acme',
    baseUrl: config.baseUrl,
    protocol: 'external',
  });
  await app.share({
    target: { workspaceId: workspace.id, channels: config.channels },
    comment: 'crash test',
    paths: config.paths,
  });
  await app.settled();
  await app.close();
  throw new Error(`the driver was meant to be killed (${config.killAt})`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
