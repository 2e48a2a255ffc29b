// A share of several files, as people make them: ten 2 MB screenshots through Slack's external
// protocol, over a link with 50 ms of round trip (bench/latency-proxy.ts in front of the
// reference service). The figure is the time from starting the client to the message being
// posted (the service logs it), Trayshare's CLI against the Slack SDK's filesUploadV2 with
// `file_uploads`, which asks for every upload URL and posts every file at once. Alternating
// runs, medians; saved in bench/results/multi-file.json like the other extras.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createAppService } from '../main/core/app-service';
import { createNodeTransport } from '../main/core/upload/node-transport';
import { createMemorySecretStore } from '../test/harness/memory-secrets';
import { startReferenceService } from '../test/reference-service/server';
import { writeTestFiles } from './files';
import { startLatencyProxy } from './latency-proxy';
import type { Goal } from './samples';
import type { BenchContext } from './scenarios';
import { rotate } from './scenarios';
import { median } from './stats';

const MULTI_FILE_LIMIT = 0.8;
const FILES = 10;
const FILE_BYTES = 2_000_000;
const ONE_WAY_MS = 25;
const COMMENT = 'Ten screenshots';

/**
 * Trayshare at the default concurrency setting (3 slots of 8 MiB: all ten files at once), at 1
 * (one slot: four 2 MB files at once, what going wide is measured against) and at the largest
 * setting (8), and the SDK.
 */
type Client = 'trayshare' | 'trayshare-1' | 'trayshare-8' | 'slack-sdk-v2';
type Ours = Exclude<Client, 'slack-sdk-v2'>;
const CLIENTS: Client[] = ['trayshare', 'trayshare-1', 'trayshare-8', 'slack-sdk-v2'];
const LABELS: Record<Client, string> = {
  trayshare: 'trayshare send --protocol external (concurrency 3, the default: all ten at once)',
  'trayshare-1':
    'trayshare send --protocol external (concurrency 1: one 8 MiB slot, four 2 MB files at once)',
  'trayshare-8': 'trayshare send --protocol external (concurrency 8, the largest setting)',
  'slack-sdk-v2': 'Slack SDK filesUploadV2 with file_uploads',
};

export interface MultiFile {
  files: number;
  fileBytes: number;
  roundTripMs: number;
  runs: number;
  /** Median ms from starting the process to the message being posted, by client. */
  toMessageMs: Partial<Record<Client, number>>;
  /** Median ms of the whole process (Trayshare then asks files.info for the links). */
  wallMs: Partial<Record<Client, number>>;
  loadBefore: number;
  cpus: number;
  errors?: string[];
}

interface RunResult {
  toMessageMs?: number;
  wallMs: number;
  /** TCP connections the client opened through the proxy (keep-alive reuses them). */
  connections: number;
  error?: string;
}

function runClient(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  return {
    started,
    done: new Promise<{ code: number | null; stdout: string; wallMs: number }>((resolve) => {
      const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.on('close', (code) => resolve({ code, stdout, wallMs: performance.now() - started }));
    }),
  };
}

async function saveConcurrency(dataDir: string, concurrency: number): Promise<void> {
  const app = await createAppService({
    dataDir,
    secrets: createMemorySecretStore(),
    transport: createNodeTransport(),
  });
  try {
    await app.setPreferences({ concurrency });
  } finally {
    await app.close();
  }
}

/** One client's share of the files, as one message with the comment, through the proxy. */
function startShare(
  ctx: BenchContext,
  client: Client,
  url: string,
  files: string[],
  dataDirs: Record<Ours, string>,
) {
  const { setup } = ctx;
  if (client === 'slack-sdk-v2') {
    return runClient(
      process.execPath,
      [
        join(setup.repoRoot, 'bench/clients/slack-sdk-share.mjs'),
        url,
        setup.channel,
        COMMENT,
        ...files,
      ],
      { PATH: process.env.PATH, SLACK_TOKEN: setup.token },
    );
  }
  return runClient(
    process.execPath,
    [
      setup.cliPath,
      'send',
      '--base-url',
      url,
      '--protocol',
      'external',
      '--channels',
      setup.channel,
      '--comment',
      COMMENT,
      '--json',
      ...files,
    ],
    { PATH: process.env.PATH, TRAYSHARE_TOKEN: setup.token, TRAYSHARE_DATA_DIR: dataDirs[client] },
  );
}

async function oneRun(
  ctx: BenchContext,
  client: Client,
  files: string[],
  dataDirs: Record<Ours, string>,
): Promise<RunResult> {
  const proxy = await startLatencyProxy({ oneWayMs: ONE_WAY_MS });
  const serviceDir = await mkdtemp(join(ctx.workDir, 'multi-service-'));
  let messageAt: number | undefined;
  let messageFiles = 0;
  const service = await startReferenceService({
    dataDir: serviceDir,
    publicUrl: proxy.url,
    config: {
      tokens: { [ctx.setup.token]: { user: 'U0BENCH', channels: [ctx.setup.channel] } },
      channels: [ctx.setup.channel],
      uploadsPerMinute: 0,
    },
    log: (line) => {
      const m = /^message \S+ with (\d+) file/.exec(line);
      if (m) {
        messageAt ??= performance.now();
        messageFiles += Number(m[1]);
      }
    },
  });
  proxy.forwardTo(service.port);
  try {
    const run = startShare(ctx, client, proxy.url, files, dataDirs);
    const out = await run.done;
    const messages = service.messages();
    const wrong =
      out.code !== 0
        ? `exit ${out.code}: ${out.stdout.split('\n')[0]?.slice(0, 200)}`
        : messages.length !== 1 || messageFiles !== FILES || service.uploads().length !== FILES
          ? `${messages.length} messages with ${messageFiles} files, ${service.uploads().length} uploads (expected 1 message with ${FILES})`
          : messages[0]!.initial_comment !== COMMENT
            ? 'the comment is missing'
            : undefined;
    return {
      wallMs: out.wallMs,
      connections: proxy.connections(),
      ...(messageAt !== undefined ? { toMessageMs: messageAt - run.started } : {}),
      ...(wrong ? { error: wrong } : {}),
    };
  } finally {
    await service.close();
    await proxy.close();
    await rm(serviceDir, { recursive: true, force: true });
  }
}

export async function runMultiFile(ctx: BenchContext): Promise<MultiFile | undefined> {
  if (!ctx.options.only.includes('multi-file')) return undefined;
  const dir = join(ctx.workDir, 'multi-file');
  ctx.log(
    `A share of ${FILES} × 2 MB over a ${2 * ONE_WAY_MS} ms round trip: trayshare vs filesUploadV2…`,
  );
  const files = await writeTestFiles(dir, 'screenshot', FILES, FILE_BYTES);
  const dataDirs: Record<Ours, string> = {
    trayshare: join(dir, 'data-3'),
    'trayshare-1': join(dir, 'data-1'),
    'trayshare-8': join(dir, 'data-8'),
  };
  await mkdir(dataDirs.trayshare, { recursive: true });
  await saveConcurrency(dataDirs['trayshare-1'], 1);
  await saveConcurrency(dataDirs['trayshare-8'], 8);
  const before = { loadBefore: loadavg()[0]!, cpus: cpus().length };
  ctx.log(`  load average before: ${before.loadBefore.toFixed(2)} on ${before.cpus} cores`);
  const toMessage: Record<Client, number[]> = {
    trayshare: [],
    'trayshare-1': [],
    'trayshare-8': [],
    'slack-sdk-v2': [],
  };
  const wall: Record<Client, number[]> = {
    trayshare: [],
    'trayshare-1': [],
    'trayshare-8': [],
    'slack-sdk-v2': [],
  };
  const errors: string[] = [];
  try {
    for (let round = 0; round < ctx.options.runs; round++) {
      for (const client of rotate(CLIENTS, round)) {
        const load = loadavg()[0]!;
        const r = await oneRun(ctx, client, files, dataDirs);
        ctx.log(
          `    ${LABELS[client]}: ${r.error ? `failed (${r.error})` : `message after ${r.toMessageMs?.toFixed(0)} ms, exit after ${r.wallMs.toFixed(0)} ms, ${r.connections} connections`} (load ${load.toFixed(2)})`,
        );
        if (r.error || r.toMessageMs === undefined) {
          errors.push(`${LABELS[client]}: ${r.error ?? 'no message'}`);
          continue;
        }
        toMessage[client].push(r.toMessageMs);
        wall[client].push(r.wallMs);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const toMessageMs: MultiFile['toMessageMs'] = {};
  const wallMs: MultiFile['wallMs'] = {};
  for (const c of CLIENTS) {
    if (toMessage[c].length) toMessageMs[c] = median(toMessage[c]);
    if (wall[c].length) wallMs[c] = median(wall[c]);
  }
  return {
    files: FILES,
    fileBytes: FILE_BYTES,
    roundTripMs: 2 * ONE_WAY_MS,
    runs: ctx.options.runs,
    toMessageMs,
    wallMs,
    ...before,
    ...(errors.length ? { errors } : {}),
  };
}

export function multiFileGoal(x: MultiFile | undefined): Goal {
  const id = 'multi-file-time';
  const target = `a share of ${FILES} × 2 MB screenshots, external protocol, 50 ms round trip: start to message posted at most ${MULTI_FILE_LIMIT}× the Slack SDK's filesUploadV2 (concurrency setting at its default)`;
  const ours = x?.toMessageMs.trayshare;
  const sdk = x?.toMessageMs['slack-sdk-v2'];
  if (!x || ours === undefined || sdk === undefined) {
    return {
      id,
      target,
      measured: x?.errors?.[0] ? `failed: ${x.errors[0]}` : 'not measured',
      pass: undefined,
    };
  }
  const r = ours / sdk;
  const pass = r <= MULTI_FILE_LIMIT;
  const at8 = x.toMessageMs['trayshare-8'];
  const eight =
    at8 !== undefined
      ? `; at concurrency 8: ${at8.toFixed(0)} ms (${(at8 / sdk).toFixed(2)}×)`
      : '';
  const noisy =
    x.loadBefore / x.cpus > 0.5 ? ` [noisy: load ${x.loadBefore.toFixed(2)} before]` : '';
  return {
    id,
    target,
    measured: `${x.runs} alternating runs, medians: ${ours.toFixed(0)} ms vs ${sdk.toFixed(0)} ms (${r.toFixed(2)}×)${pass ? '' : `: ${((r / MULTI_FILE_LIMIT - 1) * 100).toFixed(0)}% over the limit`}${eight}; whole process ${x.wallMs.trayshare?.toFixed(0)} ms vs ${x.wallMs['slack-sdk-v2']?.toFixed(0)} ms${noisy}`,
    pass,
  };
}

/**
 * Steps 1–2 in parallel within the setting: the tests prove the bound
 * (test/external/parallel-share.test.ts: the service never has more byte uploads open than the
 * setting, and has exactly that many, and never more than 10 step-1 requests); the bench shows
 * the parallelism pays: the default (3 byte uploads at once) ahead of one at a time. (Until
 * step 1 left the byte slot this compared 8 with 3; with it out, 3 and 8 are both limited by
 * what the loopback link and the CPU do with 20 MB, so 1 is the yardstick that shows it.)
 */
export function multiFileParallelGoal(x: MultiFile | undefined): Goal {
  const id = 'multi-file-parallel';
  const target =
    'a share of several files: steps 1–2 run in parallel within a share, within the concurrency setting';
  const at3 = x?.toMessageMs.trayshare;
  const at1 = x?.toMessageMs['trayshare-1'];
  const at8 = x?.toMessageMs['trayshare-8'];
  if (at3 === undefined || at1 === undefined) {
    return { id, target, measured: 'not measured', pass: undefined };
  }
  return {
    id,
    target,
    measured: `start to message ${at3.toFixed(0)} ms at the default of 3 slots (all ten at once), ${at1.toFixed(0)} ms at 1 (four at once)${at8 !== undefined ? `, ${at8.toFixed(0)} ms at 8` : ''}; the bound is checked by test/external/parallel-share.test.ts and byte-budget.test.ts (bytes in flight within the setting's 8 MiB slots, at most 10 files; step-1 requests at most 10 at once)`,
    pass: at3 < at1,
  };
}
