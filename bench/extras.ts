// Two measurements that are not "one client process per run": the cost of progress listeners
// (the engine in one process, with and without) and the core's resting cost. Each is saved on
// its own (bench/results/progress.json, core.json) so a report can show the latest of each,
// with when and how it was measured.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../main/portable/error-message';
import { bundleClient } from './bundle-client';
import { writeTestFile } from './files';
import type { Extras, ProgressCost, RestingCore } from './results';
import type { BenchContext } from './scenarios';
import { median, sizeLabel } from './stats';

/** Fresh processes timing createAppService, besides the one that also measures memory. */
const CORE_STARTS = 4;

const run = promisify(execFile);
const TSX = ['--import', 'tsx'];

interface SavedExtra<T> {
  date: string;
  command: string;
  value: T;
}

function lastJsonLine<T>(stdout: string): T {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as T;
}

function load(): { loadBefore: number; cpus: number } {
  return { loadBefore: loadavg()[0]!, cpus: cpus().length };
}

/** 1 GiB when measured, else the largest size up to it: long enough to see the cost. */
function progressSize(sizes: number[]): number {
  const fit = sizes.filter((s) => s <= 2 ** 30);
  return fit.length ? Math.max(...fit) : Math.min(...sizes);
}

export async function runProgressCost(ctx: BenchContext): Promise<ProgressCost | undefined> {
  if (!ctx.options.only.includes('progress')) return undefined;
  const sink = ctx.targets.sink;
  const link = ctx.targets.link;
  if (!sink || !link) return undefined;
  const size = progressSize(ctx.options.sizes);
  const dir = join(ctx.workDir, 'progress');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'progress.bin');
  ctx.log(
    `Progress listeners: ${sizeLabel(size)}, with and without, ${ctx.options.runs} runs each…`,
  );
  await writeTestFile(file, size);
  const before = load();
  try {
    const { stdout } = await run(
      process.execPath,
      [
        ...TSX,
        join(ctx.setup.repoRoot, 'bench/clients/progress-cost.ts'),
        await sink.begin(),
        await link.begin(),
        file,
        String(ctx.options.runs),
      ],
      { env: { ...process.env, TRAYSHARE_TOKEN: ctx.setup.token }, maxBuffer: 1 << 20 },
    );
    const value = { ...lastJsonLine<ProgressCost>(stdout), ...before };
    ctx.log(`  ${JSON.stringify(value)}`);
    return value;
  } catch (error) {
    ctx.log(`  failed: ${errorMessage(error)}`);
    return errorCost(size, ctx.options.runs, error, before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function errorCost(
  fileBytes: number,
  runs: number,
  error: unknown,
  before: { loadBefore: number; cpus: number },
): ProgressCost {
  return {
    fileBytes,
    runs,
    withMs: Number.NaN,
    withoutMs: Number.NaN,
    eventsPerSecond: Number.NaN,
    ...before,
    error: errorMessage(error).slice(0, 300),
  };
}

export async function runRestingCore(ctx: BenchContext): Promise<RestingCore | undefined> {
  if (!ctx.options.only.includes('core')) return undefined;
  const sink = ctx.targets.sink;
  if (!sink) return undefined;
  const dataDir = join(ctx.workDir, 'resting-core');
  const url = await sink.begin();
  ctx.log('Resting core: seeding a 5000-entry history and a 200-item queue…');
  const before = load();
  try {
    const bundle = await bundleClient(ctx.setup.repoRoot, 'resting-core');
    await run(process.execPath, [bundle, 'seed', dataDir, url]);
    // The start is the figure load moves most: the median of fresh processes.
    const starts: { startMs: number; startCpuMs: number }[] = [];
    for (let i = 0; i < CORE_STARTS; i++) {
      const { stdout } = await run(process.execPath, [bundle, 'start', dataDir, url]);
      starts.push(lastJsonLine(stdout));
    }
    const { stdout } = await run(process.execPath, [
      '--expose-gc',
      bundle,
      'measure',
      dataDir,
      url,
    ]);
    const full = lastJsonLine<RestingCore>(stdout);
    starts.push({ startMs: full.startMs, startCpuMs: full.startCpuMs ?? Number.NaN });
    const value: RestingCore = {
      ...full,
      startMs: median(starts.map((s) => s.startMs)),
      startCpuMs: median(starts.map((s) => s.startCpuMs)),
      starts: starts.length,
      ...before,
    };
    ctx.log(`  ${JSON.stringify(value)}`);
    return value;
  } catch (error) {
    ctx.log(`  failed: ${errorMessage(error)}`);
    return {
      historyEntries: 5000,
      queueItems: 200,
      startMs: Number.NaN,
      settledRssMB: Number.NaN,
      settledHeapMB: Number.NaN,
      uploads: 100,
      afterUploadsRssMB: Number.NaN,
      afterUploadsHeapMB: Number.NaN,
      ...before,
      error: errorMessage(error).slice(0, 300),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Each extra, saved as bench/results/<key>.json, and how a note names it. */
const EXTRA_LABELS: Record<keyof Extras, string> = {
  progress: 'progress listener',
  core: 'resting core',
  startup: 'start-up',
  appPath: "app's path",
  smallFiles: 'many small files',
  multiFile: 'several-file share',
  linkShare: 'share over TLS at 50 and 150 ms',
};

async function readSaved<T>(path: string): Promise<SavedExtra<T> | undefined> {
  if (!existsSync(path)) return undefined;
  return JSON.parse(await readFile(path, 'utf8')) as SavedExtra<T>;
}

/**
 * Saves what this run measured, and returns the latest of each with a note for any that was
 * measured by an earlier run.
 */
export async function latestExtras(
  resultsDir: string,
  measured: Extras,
  date: string,
  command: string,
): Promise<{ extras: Extras; notes: string[] }> {
  await mkdir(resultsDir, { recursive: true });
  const extras: Extras = {};
  const notes: string[] = [];
  for (const key of Object.keys(EXTRA_LABELS) as (keyof Extras)[]) {
    const path = join(resultsDir, `${key}.json`);
    const value = measured[key];
    if (value) {
      await writeFile(path, `${JSON.stringify({ date, command, value }, null, 2)}\n`);
      (extras as Record<string, unknown>)[key] = value;
      continue;
    }
    const saved = await readSaved<NonNullable<Extras[typeof key]>>(path);
    if (saved) {
      (extras as Record<string, unknown>)[key] = saved.value;
      // Re-rendering the run that measured it: nothing to point out.
      if (saved.date === date) continue;
      notes.push(
        `The ${EXTRA_LABELS[key]} figures come from an earlier run: \`${saved.command}\` at ${saved.date}.`,
      );
    }
  }
  return { extras, notes };
}
