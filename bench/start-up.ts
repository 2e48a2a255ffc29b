// Issue 25's figures where people feel them: the CLI's start-up (whole processes, paired run by
// run against `node -e 0`) and the app's path (a share handed to the running core until its
// first bytes reach the sink). Saved like the other extras (bench/results/startup.json,
// app-path.json), so a report shows the latest of each.

import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../main/portable/error-message';
import { bundleClient } from './bundle-client';
import { clientFailure, command } from './clients';
import { writeTestFile } from './files';
import { type Command, measure } from './measure';
import { pairedFigures, pairOrder } from './paired';
import type { AppPath, StartUp } from './results';
import type { BenchContext } from './scenarios';
import { median } from './stats';

const run = promisify(execFile);

/** The small file: a screenshot-sized 200 KB. */
const SMALL_FILE_BYTES = 200 * 1000;
/** At least this many pairs, whatever --runs says: one process start is a few ms of noise. */
const MIN_PAIRS = 10;

function load(): { loadBefore: number; cpus: number } {
  return { loadBefore: loadavg()[0]!, cpus: cpus().length };
}

const bareNode: Command = { cmd: process.execPath, args: ['-e', '0'], env: {} };

/**
 * `pairs` rounds of `yardstick` and `ours`, alternating which goes first; returns each side's
 * wall times (NaN for a run that failed) and CPU times, round by round.
 */
async function paired(
  pairs: number,
  yardstick: Command,
  ours: () => Promise<{ wallMs: number; cpuMs: number; error?: string }>,
): Promise<{
  node: number[];
  ours: number[];
  oursCpu: number[];
  nodeCpu: number[];
  errors: string[];
}> {
  const out = {
    node: [] as number[],
    ours: [] as number[],
    oursCpu: [] as number[],
    nodeCpu: [] as number[],
    errors: [] as string[],
  };
  for (let round = 0; round < pairs; round++) {
    for (const side of pairOrder(round)) {
      if (side === 'a') {
        const r = await ours();
        out.ours.push(r.error ? Number.NaN : r.wallMs);
        out.oursCpu.push(r.error ? Number.NaN : r.cpuMs);
        if (r.error) out.errors.push(r.error);
      } else {
        const r = await measure(yardstick);
        out.node.push(r.exitCode === 0 ? r.wallMs : Number.NaN);
        out.nodeCpu.push(r.cpuMs);
      }
    }
  }
  return out;
}

export async function runStartUp(ctx: BenchContext): Promise<StartUp | undefined> {
  if (!ctx.options.only.includes('startup')) return undefined;
  const sink = ctx.targets.sink;
  if (!sink) return undefined;
  const pairs = Math.max(MIN_PAIRS, ctx.options.runs);
  const dir = join(ctx.workDir, 'start-up');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'screenshot.png');
  await writeTestFile(file, SMALL_FILE_BYTES);
  ctx.log(`Start-up: ${pairs} pairs each against node -e 0 (--version; one 200 KB send)…`);
  const before = load();
  try {
    const version: Command = {
      cmd: process.execPath,
      args: [ctx.setup.cliPath, '--version'],
      env: { TRAYSHARE_DATA_DIR: ctx.setup.cliDataDir },
    };
    const send = async () => {
      const url = await sink.begin();
      const r = await measure(command('trayshare', ctx.setup, url, [file]));
      const failure =
        clientFailure('trayshare', r, 1) ??
        (await sink.end({ sizes: [SMALL_FILE_BYTES], protocol: 'files.upload' }));
      return { wallMs: r.wallMs, cpuMs: r.cpuMs, ...(failure ? { error: failure } : {}) };
    };
    const versionRun = async () => {
      const r = await measure(version);
      return {
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        ...(r.exitCode === 0 ? {} : { error: r.stderr.slice(0, 200) }),
      };
    };
    // One of each first: the compile cache is written by a CLI's first run, as after an install.
    await versionRun();
    await send();
    const v = await paired(pairs, bareNode, versionRun);
    const s = await paired(pairs, bareNode, send);
    const vf = pairedFigures(v.ours, v.node);
    const sf = pairedFigures(s.ours, s.node);
    const value: StartUp = {
      pairs,
      versionMs: vf.medianA,
      versionNodeMs: vf.medianB,
      versionRatio: vf.ratio,
      versionCpuMs: median(v.oursCpu.filter(Number.isFinite)),
      nodeCpuMs: median([...v.nodeCpu, ...s.nodeCpu]),
      sendBytes: SMALL_FILE_BYTES,
      sendMs: sf.medianA,
      sendNodeMs: sf.medianB,
      sendOverNodeMs: sf.difference,
      sendCpuMs: median(s.oursCpu.filter(Number.isFinite)),
      failed: v.errors.length + s.errors.length,
      ...before,
      ...(v.errors[0] || s.errors[0] ? { error: (v.errors[0] ?? s.errors[0])!.slice(0, 300) } : {}),
    };
    ctx.log(`  ${JSON.stringify(value)}`);
    return value;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runAppPath(ctx: BenchContext): Promise<AppPath | undefined> {
  if (!ctx.options.only.includes('app-path')) return undefined;
  const sink = ctx.targets.sink;
  if (!sink) return undefined;
  const runs = Math.max(MIN_PAIRS, ctx.options.runs);
  const dir = join(ctx.workDir, 'app-path');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'screenshot.png');
  await writeTestFile(file, SMALL_FILE_BYTES);
  ctx.log(
    `The app's path: ${runs} shares handed to a running core, to the first byte at the sink…`,
  );
  const before = load();
  try {
    const bundle = await bundleClient(ctx.setup.repoRoot, 'app-path');
    const url = await sink.begin();
    const { stdout } = await run(process.execPath, [
      bundle,
      join(dir, 'data'),
      url,
      file,
      String(runs),
    ]);
    const { warmUp, handedAt } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      warmUp: number;
      handedAt: number[];
    };
    const arrived = (sink.requests?.() ?? [])
      .filter((r) => r.method === 'files.upload')
      .slice(warmUp)
      .map((r) => r.firstBodyAt ?? Number.NaN);
    await sink.end({ sizes: [], protocol: 'files.upload' }).catch(() => undefined);
    if (arrived.length !== handedAt.length) {
      throw new Error(`the sink saw ${arrived.length} uploads for ${handedAt.length} shares`);
    }
    const figures = pairedFigures(arrived, handedAt);
    const value: AppPath = {
      runs,
      fileBytes: SMALL_FILE_BYTES,
      firstByteMs: figures.difference,
      samplesMs: arrived.map((a, i) => a - handedAt[i]!),
      ...before,
    };
    ctx.log(`  ${JSON.stringify(value)}`);
    return value;
  } catch (error) {
    const message = errorMessage(error);
    ctx.log(`  failed: ${message}`);
    return {
      runs,
      fileBytes: SMALL_FILE_BYTES,
      firstByteMs: Number.NaN,
      ...before,
      error: message.slice(0, 300),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
