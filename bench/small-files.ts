// Many small files, the issue's yardstick: `curl --next` (one process, one kept-alive
// connection) against Trayshare's two paths for the same files to the sink: the CLI
// (`trayshare send`) and the app's path (a share through the durable queue, journaled and
// written to history: bench/clients/small-queue.ts). Alternating runs, medians; saved on its
// own in bench/results/small-files.json like the other extras.
import { mkdir, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { bundleClient } from './bundle-client';
import { clientFailure, command } from './clients';
import { writeTestFiles } from './files';
import { type Command, measure } from './measure';
import type { Goal } from './samples';
import type { BenchContext } from './scenarios';
import { rotate } from './scenarios';
import { median, sizeLabel } from './stats';

/**
 * The targets, as shares of curl --next's files per second: the app's queue at least half,
 * `trayshare send` at least 0.8 of it.
 */
const SMALL_RATE_OF_CURL_NEXT: Record<'cli' | 'queue', number> = { cli: 0.8, queue: 0.5 };

type Client = 'cli' | 'queue' | 'curl-next';

const LABELS: Record<Client, string> = {
  cli: 'trayshare send',
  queue: 'the app’s queue (journaled share)',
  'curl-next': 'curl --next (keep-alive)',
};

export interface SmallFiles {
  files: number;
  fileBytes: number;
  runs: number;
  /** Median files per second of the whole process (start to exit), by client. */
  filesPerSecond: Partial<Record<Client, number>>;
  /** Median peak RSS, KiB. */
  peakRssKiB: Partial<Record<Client, number>>;
  /**
   * The app's queue as a person at the running app sees it: files per second from the share to
   * its last file's outcome, without the process's start and the core's opening (which the tray
   * app pays once, at launch). Median; from the client's `share-ms` line on stderr.
   */
  queueRunningFilesPerSecond?: number;
  loadBefore: number;
  cpus: number;
  errors?: string[];
}

export async function runManySmallFiles(ctx: BenchContext): Promise<SmallFiles | undefined> {
  const { options, setup } = ctx;
  const sink = ctx.targets.sink;
  if (!options.only.includes('small') || !sink) return undefined;
  const dir = join(ctx.workDir, 'small-paths');
  const n = options.smallCount;
  ctx.log(
    `Many small files: ${n} × ${sizeLabel(options.smallSize)}, CLI and queue vs curl --next…`,
  );
  const files = await writeTestFiles(dir, 'small', n, options.smallSize);
  const bundle = await bundleClient(setup.repoRoot, 'small-queue');
  const before = { loadBefore: loadavg()[0]!, cpus: cpus().length };
  ctx.log(`  load average before: ${before.loadBefore.toFixed(2)} on ${before.cpus} cores`);
  const samples: Record<Client, { wallMs: number; rss: number }[]> = {
    cli: [],
    queue: [],
    'curl-next': [],
  };
  const errors: string[] = [];
  const shareMs: number[] = [];
  try {
    for (let round = 0; round < options.runs; round++) {
      for (const client of rotate<Client>(['cli', 'queue', 'curl-next'], round)) {
        const url = await sink.begin();
        const dataDir = join(ctx.workDir, `small-queue-${round}`);
        await mkdir(dataDir, { recursive: true });
        const cmd: Command =
          client === 'queue'
            ? {
                cmd: process.execPath,
                args: [bundle, dataDir, url, setup.channel, ...files],
                env: { PATH: process.env.PATH, TRAYSHARE_TOKEN: setup.token },
              }
            : command(client === 'cli' ? 'trayshare' : 'curl-next', setup, url, files);
        const run = await measure(cmd);
        await rm(dataDir, { recursive: true, force: true });
        const failure =
          clientFailure(client === 'curl-next' ? 'curl-next' : 'trayshare', run, n) ??
          (await sink.end({ sizes: files.map(() => options.smallSize), protocol: 'files.upload' }));
        ctx.log(
          `    ${LABELS[client]}: ${failure ? `failed (${failure})` : `${(run.wallMs / 1000).toFixed(3)} s, ${(n / (run.wallMs / 1000)).toFixed(0)} files/s`} (load ${loadavg()[0]!.toFixed(2)})`,
        );
        if (failure) errors.push(`${LABELS[client]}: ${failure}`);
        else samples[client].push({ wallMs: run.wallMs, rss: run.peakRssKiB });
        const running = client === 'queue' ? /share-ms (\d+(?:\.\d+)?)/.exec(run.stderr) : null;
        if (!failure && running) shareMs.push(Number(running[1]));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const filesPerSecond: SmallFiles['filesPerSecond'] = {};
  const peakRssKiB: SmallFiles['peakRssKiB'] = {};
  for (const client of Object.keys(samples) as Client[]) {
    const s = samples[client];
    if (s.length === 0) continue;
    filesPerSecond[client] = n / (median(s.map((x) => x.wallMs)) / 1000);
    peakRssKiB[client] = median(s.map((x) => x.rss));
  }
  return {
    files: n,
    fileBytes: options.smallSize,
    runs: options.runs,
    filesPerSecond,
    peakRssKiB,
    ...(shareMs.length ? { queueRunningFilesPerSecond: n / (median(shareMs) / 1000) } : {}),
    ...before,
    ...(errors.length ? { errors } : {}),
  };
}

function noisy(x: SmallFiles): string {
  return x.loadBefore / x.cpus > 0.5 ? ` [noisy: load ${x.loadBefore.toFixed(2)} before]` : '';
}

/** One goal per Trayshare path: at least half of curl --next's files per second. */
export function smallFilesGoals(x: SmallFiles | undefined): Goal[] {
  const paths: ['cli' | 'queue', string][] = [
    ['cli', 'small-next-rate'],
    ['queue', 'small-queue-keepalive'],
  ];
  return paths.map(([client, id]) => {
    const want = SMALL_RATE_OF_CURL_NEXT[client];
    const target = `many small files, ${LABELS[client]}: at least ${want}× curl --next's files per second (sink, whole process)`;
    const ours = x?.filesPerSecond[client];
    const curl = x?.filesPerSecond['curl-next'];
    if (!x || ours === undefined || curl === undefined) {
      const why = x?.errors?.[0] ? `failed: ${x.errors[0]}` : 'not measured';
      return { id, target, measured: why, pass: undefined };
    }
    const r = ours / curl;
    const pass = r >= want;
    const running =
      client === 'queue' && x.queueRunningFilesPerSecond !== undefined
        ? `; in a running core (share to last outcome) ${x.queueRunningFilesPerSecond.toFixed(0)} files/s (${(x.queueRunningFilesPerSecond / curl).toFixed(2)}×)`
        : '';
    return {
      id,
      target,
      measured: `${x.files} × ${sizeLabel(x.fileBytes)}, ${x.runs} alternating runs: ${ours.toFixed(0)} vs ${curl.toFixed(0)} files/s (${r.toFixed(2)}×)${pass ? '' : `: ${((1 - r / want) * 100).toFixed(0)}% short`}${running}${noisy(x)}`,
      pass,
    };
  });
}
