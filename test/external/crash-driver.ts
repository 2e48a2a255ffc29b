// A process the crash test SIGKILLs at a chosen point of the external protocol: the app's core
// (settings, durable queue, engine) with the CLI's state folder, so the built CLI can pick up
// where it died.
//   node --import tsx test/external/crash-driver.ts <config.json>
// config: { dataDir, baseUrl, channels, paths, killAt, concurrency? }; killAt is
// 'before-step-3', 'after-step-3', 'after-completing-mark' (at the first journal write after the
// fsync of the journal write that marked the share "completing": whatever the process does
// between its mark and its completion request is cut there), or 'second-upload' (just before the second file's bytes go,
// once the first file's step 2 was answered and its checkpoint journaled, the files after it
// having asked for their upload URLs); the token is the test token (helpers.ts), never in argv.
// 'second-upload' waits for the first file's checkpoint rather than assuming it: the queue's
// byte budget lets small files go ten to a slot, so the second file's bytes may set out while
// the first file's are still on the way, and the kill is meant for the moment after the
// first file's step 2 (when files went one at a time, that moment came first by itself).
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_STATE } from '../../main/cli/context';
import { JOURNAL_FILE } from '../../main/core/queue/journal';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';
import { openApp } from './helpers';

interface DriverConfig {
  dataDir: string;
  baseUrl: string;
  channels: string[];
  paths: string[];
  killAt: 'before-step-3' | 'after-step-3' | 'after-completing-mark' | 'second-upload';
  /** The concurrency setting to share with (the app's default otherwise). */
  concurrency?: number;
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** True once the queue's journal holds a checkpoint (an item's `resume`, set after step 2). */
async function checkpointJournaled(dataDir: string): Promise<boolean> {
  const text = await readFile(join(dataDir, CLI_STATE, 'queue', JOURNAL_FILE), 'utf8').catch(
    () => '',
  );
  return /"resume":\{/.test(text);
}

/**
 * The real transport, and a kill at step 3 (before its first byte, or once it was answered), or
 * before the second file's bytes: those, and any after them, are held and never sent.
 */
function killingTransport(killAt: DriverConfig['killAt'], dataDir: string): Transport {
  const inner = createNodeTransport();
  let uploads = 0;
  let firstUpload: Promise<unknown> | undefined;
  return {
    async request(req) {
      if (killAt === 'second-upload') {
        if (!req.url.includes('/_upload/')) return inner.request(req);
        uploads += 1;
        if (uploads === 1) {
          const answer = inner.request(req);
          firstUpload = answer.catch(() => {});
          return answer;
        }
        if (uploads > 2) return new Promise<never>(() => {});
        await firstUpload;
        while (!(await checkpointJournaled(dataDir))) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return die();
      }
      if (killAt === 'after-completing-mark') return inner.request(req);
      if (!req.url.endsWith('/api/files.completeUploadExternal')) return inner.request(req);
      if (killAt === 'before-step-3') die();
      await inner.request(req);
      return die();
    },
  };
}

interface FileHandleMethods {
  appendFile: (this: object, data: unknown, opts?: unknown) => Promise<void>;
  sync: (this: object) => Promise<void>;
}

/**
 * 'after-completing-mark': wraps the FileHandle prototype's appendFile and sync (the journal's
 * only writes, jsonl-file.ts). Once a journal write holding `"completing":true` has been
 * fsynced, the next journal write kills the process before it reaches the file.
 */
async function killAfterCompletingMark(): Promise<void> {
  const probe = await open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(probe) as FileHandleMethods;
  await probe.close();
  const { appendFile, sync } = proto;
  const marked = new WeakSet<object>();
  let markSynced = false;
  proto.appendFile = async function (data, opts) {
    const journal = typeof data === 'string' && data.startsWith('{"t":');
    if (journal && markSynced) return die();
    if (journal && (data as string).includes('"completing":true')) marked.add(this);
    return appendFile.call(this, data, opts);
  };
  proto.sync = async function () {
    await sync.call(this);
    if (marked.has(this)) markSynced = true;
  };
}

async function main(): Promise<void> {
  const configPath = process.argv[2];
  if (!configPath) throw new Error('usage: crash-driver.ts <config.json>');
  const config = JSON.parse(await readFile(configPath, 'utf8')) as DriverConfig;
  if (config.killAt === 'after-completing-mark') await killAfterCompletingMark();
  const app = await openApp({
    dataDir: config.dataDir,
    stateName: CLI_STATE,
    transport: killingTransport(config.killAt, config.dataDir),
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
