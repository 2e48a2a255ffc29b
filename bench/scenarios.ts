// The comparisons. Within one case every client runs once per round, in an order that rotates
// from round to round (A B C, B C A, C A B…), so drift on a busy machine spreads over all of
// them instead of favouring whoever runs first.
import { mkdir, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { type ClientSetup, clientFailure, command, TOOL_LABELS, type ToolId } from './clients';
import { writeTestFile, writeTestFiles } from './files';
import { measure, measureTogether } from './measure';
import type { BenchOptions, ScenarioName } from './options';
import type { Sample, Series } from './samples';
import { formatRss, formatSeconds, sizeLabel } from './stats';
import { type Expected, TARGET_LABELS, type Target, type TargetName } from './targets';

interface Entry {
  tool: ToolId;
  target: TargetName;
}

export interface BenchContext {
  options: BenchOptions;
  workDir: string;
  setup: ClientSetup;
  targets: Partial<Record<TargetName, Target>>;
  /** Whether the CLI has an external-protocol mode (see run.ts). */
  cliExternal: boolean;
  log: (line: string) => void;
  series: Series[];
}

interface Comparison {
  scenario: ScenarioName;
  caseLabel: string;
  fileBytes: number;
  /** Files per process; several lists run as that many processes at once. */
  files: string[][];
  entries: Entry[];
  protocol: Expected['protocol'];
}

export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

async function runOnce(ctx: BenchContext, c: Comparison, entry: Entry): Promise<Sample> {
  const target = ctx.targets[entry.target];
  if (!target) return { wallMs: Number.NaN, peakRssKiB: Number.NaN, error: 'target not started' };
  const url = await target.begin();
  const commands = c.files.map((files) => command(entry.tool, ctx.setup, url, files));
  let sample: Sample;
  if (commands.length === 1) {
    const run = await measure(commands[0]!);
    const failure = clientFailure(entry.tool, run, c.files[0]!.length);
    sample = {
      wallMs: run.wallMs,
      peakRssKiB: run.peakRssKiB,
      cpuMs: run.cpuMs,
      ...(failure ? { error: failure } : {}),
    };
  } else {
    const group = await measureTogether(commands);
    const failures = group.members
      .map((m, i) => clientFailure(entry.tool, m, c.files[i]!.length))
      .filter((f): f is string => f !== undefined);
    sample = {
      wallMs: group.wallMs,
      peakRssKiB: group.maxPeakRssKiB,
      sumRssKiB: group.sumPeakRssKiB,
      cpuMs: group.cpuMs,
      ...(failures.length ? { error: failures[0] } : {}),
    };
  }
  const arrived = await target.end({
    sizes: c.files.flat().map(() => c.fileBytes),
    protocol: c.protocol,
  });
  if (arrived && !sample.error) sample.error = arrived;
  return sample;
}

async function runComparison(ctx: BenchContext, c: Comparison): Promise<void> {
  // Marked "noisy" in the tables when above half a core's worth per core (see results.ts).
  const loadBefore = loadavg()[0]!;
  const cores = cpus().length;
  ctx.log(
    `  [${c.scenario} ${c.caseLabel}] load average before: ${loadBefore.toFixed(2)} on ${cores} cores`,
  );
  const series = c.entries.map<Series>((e) => ({
    scenario: c.scenario,
    caseLabel: c.caseLabel,
    tool: e.tool,
    target: e.target,
    fileBytes: c.fileBytes,
    files: c.files.flat().length,
    processes: c.files.length,
    loadBefore,
    cpus: cores,
    samples: [],
  }));
  ctx.series.push(...series);
  const runs = ctx.options.runs;
  for (let round = 0; round < runs; round++) {
    for (const entry of rotate(c.entries, round)) {
      const s = series.find((x) => x.tool === entry.tool && x.target === entry.target)!;
      const load = loadavg()[0]!;
      const sample = { ...(await runOnce(ctx, c, entry)), loadBefore: load };
      s.samples.push(sample);
      const what = `${TOOL_LABELS[entry.tool]} → ${TARGET_LABELS[entry.target]}`;
      ctx.log(
        `  [${c.scenario} ${c.caseLabel}] ${round + 1}/${runs} ${what}: ` +
          (sample.error
            ? `FAILED (${sample.error})`
            : `${formatSeconds(sample.wallMs)}, ${formatRss(sample.peakRssKiB)}, CPU ${((sample.cpuMs ?? Number.NaN) / 1000).toFixed(2)} s (load before ${load.toFixed(2)})`),
      );
    }
  }
}

/** The size measured over the 1 Gbit/s link: 1 GiB when asked for, else the smallest size. */
function linkSize(sizes: number[]): number {
  return sizes.includes(2 ** 30) ? 2 ** 30 : Math.min(...sizes);
}

function both(tools: ToolId[], targets: TargetName[]): Entry[] {
  return targets.flatMap((target) => tools.map((tool) => ({ tool, target })));
}

/** One file per size: comparison 1 (files.upload) and 4 (external protocol) share the file. */
export async function runOneFile(ctx: BenchContext): Promise<void> {
  const { options } = ctx;
  const wantLarge = options.only.includes('large');
  const wantExternal = options.only.includes('external');
  if (!wantLarge && !wantExternal) return;
  const dir = join(ctx.workDir, 'one-file');
  await mkdir(dir, { recursive: true });
  for (const size of options.sizes) {
    const label = sizeLabel(size);
    const path = join(dir, `file-${label.replace(' ', '')}.bin`);
    ctx.log(`Writing a ${label} test file…`);
    await writeTestFile(path, size);
    try {
      if (wantLarge) {
        await runComparison(ctx, {
          scenario: 'large',
          caseLabel: label,
          fileBytes: size,
          files: [[path]],
          entries: [
            ...both(['trayshare', 'curl', 'slack-sdk', 'node-pipe'], ['sink']),
            ...both(['trayshare', 'curl'], ['service']),
            // What a person sees on a real network: one size only, it takes a while.
            ...(size === linkSize(options.sizes) ? both(['trayshare', 'curl'], ['link']) : []),
          ],
          protocol: 'files.upload',
        });
      }
      // The SDK holds the whole file in memory (2 GiB: about 4.4 GB and half a minute a run),
      // so above --external-max only trayshare runs.
      const tools: ToolId[] = [
        ...(ctx.cliExternal ? (['trayshare-external'] as const) : []),
        ...(size <= options.externalMax ? (['slack-sdk-v2'] as const) : []),
      ];
      if (wantExternal && tools.length > 0) {
        await runComparison(ctx, {
          scenario: 'external',
          caseLabel: label,
          fileBytes: size,
          files: [[path]],
          // The sink only: what differs here is the client's memory, and the SDK is slow
          // enough with a large file that the service's side would double the run time.
          entries: both(tools, ['sink']),
          protocol: 'external',
        });
      }
    } finally {
      await rm(path, { force: true });
    }
  }
  await rm(dir, { recursive: true, force: true });
}

export async function runSmallFiles(ctx: BenchContext): Promise<void> {
  const { options } = ctx;
  if (!options.only.includes('small')) return;
  const dir = join(ctx.workDir, 'small');
  ctx.log(`Writing ${options.smallCount} files of ${sizeLabel(options.smallSize)}…`);
  const files = await writeTestFiles(dir, 'small', options.smallCount, options.smallSize);
  try {
    await runComparison(ctx, {
      scenario: 'small',
      caseLabel: `${options.smallCount} × ${sizeLabel(options.smallSize)}`,
      fileBytes: options.smallSize,
      files: [files],
      entries: [
        ...both(['trayshare', 'curl-loop', 'curl-next', 'slack-sdk'], ['sink']),
        ...both(['trayshare', 'curl-loop'], ['service']),
      ],
      protocol: 'files.upload',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runConcurrent(ctx: BenchContext): Promise<void> {
  const { options } = ctx;
  if (!options.only.includes('concurrent')) return;
  const dir = join(ctx.workDir, 'concurrent');
  const n = options.concurrentCount;
  ctx.log(`Writing ${n} files of ${sizeLabel(options.concurrentSize)}…`);
  const files = await writeTestFiles(dir, 'together', n, options.concurrentSize);
  try {
    await runComparison(ctx, {
      scenario: 'concurrent',
      caseLabel: `${n} × ${sizeLabel(options.concurrentSize)} at once`,
      fileBytes: options.concurrentSize,
      files: files.map((f) => [f]),
      entries: both(['trayshare', 'curl'], ['sink', 'service']),
      protocol: 'files.upload',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Disk the chosen comparisons need at most at one time: test files plus the service's copies. */
export function diskNeeded(options: BenchOptions): number {
  const needs: number[] = [0];
  if (options.only.includes('large') || options.only.includes('external')) {
    needs.push(2 * Math.max(...options.sizes));
  }
  if (options.only.includes('concurrent')) {
    needs.push(2 * options.concurrentCount * options.concurrentSize);
  }
  if (options.only.includes('small')) {
    // Each small file takes at least one 4 KiB block.
    needs.push(2 * options.smallCount * Math.max(options.smallSize, 4096));
  }
  return Math.max(...needs) + 256 * 2 ** 20;
}
