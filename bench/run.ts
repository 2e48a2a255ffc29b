// `npm run bench`: Trayshare's CLI against curl and the Slack SDK, on loopback, against a plain
// sink and against the reference service. See bench/REPORT.md for the latest figures.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../main/portable/error-message';
import type { ClientSetup } from './clients';
import { latestExtras, runProgressCost, runRestingCore } from './extras';
import { freeBytes } from './files';
import { evaluateGoals } from './goals';
import { runLinkShare } from './link-share';
import { describeMachine } from './machine';
import { killRunning, TIME_BIN, useScratchDir } from './measure';
import { runMultiFile } from './multi-file';
import { type BenchOptions, parseOptions, USAGE } from './options';
import { buildPairs } from './pairs';
import { runPhotoDetails } from './photo-details';
import { chartsFor, renderSvg } from './plot';
import { machineLine, markdownReport, textReport } from './report';
import { type Extras, type Results, summarise } from './results';
import {
  type BenchContext,
  diskNeeded,
  runConcurrent,
  runOneFile,
  runSmallFiles,
} from './scenarios';
import { runManySmallFiles } from './small-files';
import { runAppPath, runStartUp } from './start-up';
import { sizeLabel } from './stats';
import { serviceTarget, sinkTarget, type Target, type TargetName } from './targets';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const benchDir = join(repoRoot, 'bench');
const resultsDir = join(benchDir, 'results');
const cliPath = join(repoRoot, 'out/cli/trayshare.js');

const ACCOUNT = { token: 'xoxb-bench-token', user: 'U0BENCH', channel: 'C0BENCH' };

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function fail(message: string): never {
  log(message);
  process.exit(1);
}

function checkTools(): void {
  if (!existsSync(TIME_BIN)) {
    fail(`${TIME_BIN} is needed to measure peak RSS (Debian: apt-get install time).`);
  }
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
  } catch {
    fail('curl is needed for the comparison (Debian: apt-get install curl).');
  }
  if (!existsSync(cliPath)) {
    fail(`${cliPath} is missing: build the CLI first (npm run build:cli), or use npm run bench.`);
  }
}

/**
 * The option that selects the external protocol in `trayshare send --base-url` mode, read from
 * the CLI's own help so the bench follows the CLI rather than guessing.
 */
function cliExternalArgs(): string[] | undefined {
  let help = '';
  try {
    help = execFileSync(process.execPath, [cliPath, 'send', '--help'], { encoding: 'utf8' });
  } catch {
    return undefined;
  }
  if (/--protocol\b/.test(help) && /external/.test(help)) return ['--protocol', 'external'];
  if (/--external\b/.test(help)) return ['--external'];
  return undefined;
}

async function checkDisk(options: BenchOptions): Promise<void> {
  const need = diskNeeded(options);
  const free = await freeBytes(options.tmp);
  if (free < need) {
    fail(
      `Not enough free disk in ${options.tmp}: these comparisons need about ${sizeLabel(need)} at once ` +
        `(test files plus the reference service's copies) and ${sizeLabel(free)} is free. ` +
        'Choose smaller --sizes, fewer comparisons with --only, or another --tmp folder.',
    );
  }
  log(`Disk: ${sizeLabel(free)} free in ${options.tmp}, about ${sizeLabel(need)} needed at most.`);
}

/** Prints the tables and writes the plot; with `report`, also REPORT.md and plot.svg. */
async function publish(results: Results, report: boolean): Promise<void> {
  process.stdout.write(
    `\n${results.command} · ${results.date} · ${machineLine(results)}\n\n${textReport(results)}`,
  );
  const svg = renderSvg(
    chartsFor(results),
    `${results.date.slice(0, 10)} · ${machineLine(results)}`,
  );
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'latest.svg'), svg);
  log('Wrote bench/results/latest.svg.');
  if (report) {
    const notesPath = join(benchDir, 'notes.md');
    const handNotes = existsSync(notesPath) ? await readFile(notesPath, 'utf8') : '';
    await writeFile(join(benchDir, 'REPORT.md'), markdownReport(results, handNotes));
    await writeFile(join(benchDir, 'plot.svg'), svg);
    log('Wrote bench/REPORT.md and bench/plot.svg.');
  }
}

/** REPORT.md and the plot again from bench/results/latest.json, with targets recomputed. */
async function renderSaved(): Promise<void> {
  const latest = join(resultsDir, 'latest.json');
  if (!existsSync(latest)) fail('No bench/results/latest.json yet: run the bench first.');
  const saved = JSON.parse(await readFile(latest, 'utf8')) as Results;
  const { extras, notes } = await latestExtras(resultsDir, {}, saved.date, saved.command);
  // Ratios and targets are recomputed, so a change to how they are judged shows at once.
  const results = {
    ...saved,
    extras,
    pairs: buildPairs(saved.series),
    goals: evaluateGoals(saved.series, extras),
    notes: [...saved.notes.filter((n) => !/come from an earlier run/.test(n)), ...notes],
  };
  await publish(results, true);
}

/** Every comparison asked for, in order; returns the extras (the figures that are not series). */
async function measure(ctx: BenchContext): Promise<Extras> {
  await runOneFile(ctx);
  await runSmallFiles(ctx);
  await runConcurrent(ctx);
  const extras: Extras = {};
  const progress = await runProgressCost(ctx);
  if (progress) extras.progress = progress;
  const core = await runRestingCore(ctx);
  if (core) extras.core = core;
  const startup = await runStartUp(ctx);
  if (startup) extras.startup = startup;
  const appPath = await runAppPath(ctx);
  if (appPath) extras.appPath = appPath;
  const smallFiles = await runManySmallFiles(ctx);
  if (smallFiles) extras.smallFiles = smallFiles;
  const multiFile = await runMultiFile(ctx);
  if (multiFile) extras.multiFile = multiFile;
  const linkShare = await runLinkShare(ctx);
  if (linkShare) extras.linkShare = linkShare;
  // Printed only: what removing photo and video details costs against sending as they are.
  await runPhotoDetails(ctx);
  return extras;
}

/** What the clients are given: the CLI, the token (curl's from a 0600 file), their folders. */
async function clientSetup(
  workDir: string,
): Promise<{ setup: ClientSetup; external: string[] | undefined }> {
  const timeDir = join(workDir, 'time');
  await mkdir(timeDir);
  useScratchDir(timeDir);
  const curlHeaderFile = join(workDir, 'curl-auth-header');
  await writeFile(curlHeaderFile, `Authorization: Bearer ${ACCOUNT.token}\n`, { mode: 0o600 });
  const cliDataDir = join(workDir, 'cli-data');
  await mkdir(cliDataDir, { recursive: true });
  const external = cliExternalArgs();
  const setup: ClientSetup = {
    repoRoot,
    cliPath,
    token: ACCOUNT.token,
    channel: ACCOUNT.channel,
    curlHeaderFile,
    cliDataDir,
    ...(external ? { cliExternalArgs: external } : {}),
  };
  return { setup, external };
}

/** The notes every full run's report carries: how the files, the token and RSS were handled. */
function runNotes(loadAtStart: number, cpus: number, noExternalOption: boolean): string[] {
  const notes = [
    'Test files hold real bytes (a random 1 MiB block, its index stamped in each MiB, written with plain writes; no sparse holes), so every client reads every byte. They were just written and fit in memory, so reads come from the page cache: the figures measure the clients, not the disk.',
    'curl reads its Authorization header from a 0600 file (-H @file) so the token is not in its argv; that costs the same as -H "Authorization: Bearer $TOKEN".',
    'Peak RSS is /usr/bin/time %M of each client process (for the curl loop: the largest of its curl processes).',
    `Load average (1 min) was ${loadAtStart.toFixed(2)} at the start and ${loadavg()[0]!.toFixed(2)} at the end, on ${cpus} cores: anything else running on the machine adds noise, which the alternating runs and medians are there to absorb.`,
  ];
  if (noExternalOption) {
    notes.push(
      "TODO: `trayshare send` has no external-protocol option yet, so comparison 4 measures the Slack SDK's filesUploadV2 alone; trayshare's files.upload figures for the same file stand in for comparison.",
    );
  }
  return notes;
}

/** Stops the clients and removes the test files, once: at the end, or on Ctrl-C / SIGTERM. */
function cleanupOnSignal(workDir: string, targets: Partial<Record<TargetName, Target>>) {
  let cleaning: Promise<void> | undefined;
  const cleanup = () => {
    cleaning ??= (async () => {
      killRunning();
      for (const t of Object.values(targets)) await t?.close().catch(() => undefined);
      await rm(workDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    log(`\n${signal}: stopping the clients and removing the test files…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    cleanup,
    interrupted: () => interrupted,
    off: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The options to measure with; undefined when the command was --help or --render (done here). */
async function optionsToRun(): Promise<BenchOptions | undefined> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    fail(`${errorMessage(error)}\n\n${USAGE}`);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  if (options.render) {
    await renderSaved();
    return undefined;
  }
  return options;
}

async function main(): Promise<void> {
  const options = await optionsToRun();
  if (!options) return;
  checkTools();
  await checkDisk(options);
  const args = process.argv.slice(2);
  const commandLine = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const workDir = await mkdtemp(join(options.tmp, 'trayshare-bench-'));
  const targets: Partial<Record<TargetName, Target>> = {};
  const end = cleanupOnSignal(workDir, targets);

  try {
    const { setup, external } = await clientSetup(workDir);
    targets.sink = await sinkTarget();
    targets.link = await sinkTarget('link');
    targets.service = await serviceTarget(workDir, ACCOUNT);
    const machine = describeMachine(repoRoot);
    log(`Machine: ${machineLine({ machine } as Results)}`);
    log(`Runs per client and case: ${options.runs}; comparisons: ${options.only.join(', ')}.`);
    const ctx: BenchContext = {
      options,
      workDir,
      setup,
      targets,
      cliExternal: external !== undefined,
      log,
      series: [],
    };
    const measuredExtras = await measure(ctx);
    const date = new Date().toISOString();
    const latest = await latestExtras(resultsDir, measuredExtras, date, commandLine);
    if (ctx.series.length === 0) {
      // Only extras were asked for: the last full run's latest.json stays as it is.
      for (const g of evaluateGoals([], measuredExtras).filter((g) => g.pass !== undefined)) {
        log(`${g.pass ? 'PASS' : 'FAIL'}  ${g.target}: ${g.measured}`);
      }
      log('Wrote bench/results/<extra>.json for what was measured.');
      if (options.report) await renderSaved();
      return;
    }

    const series = ctx.series.map(summarise);
    const notes = [
      ...runNotes(loadAtStart, machine.cpus, options.only.includes('external') && !external),
      ...latest.notes,
    ];
    const results: Results = {
      date,
      command: commandLine,
      machine,
      options: { ...options },
      durationMs: Date.now() - started,
      series,
      pairs: buildPairs(series),
      goals: evaluateGoals(series, latest.extras),
      extras: latest.extras,
      notes,
    };
    await mkdir(resultsDir, { recursive: true });
    await writeFile(join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
    log('\nWrote bench/results/latest.json.');
    await publish(results, options.report);
    log(`Done in ${((Date.now() - started) / 60_000).toFixed(1)} min.`);
  } catch (error) {
    // Interrupted: this error is only the consequence (a client was stopped).
    if (end.interrupted()) {
      await end.cleanup();
      process.exit(130);
    }
    throw error;
  } finally {
    await end.cleanup();
    end.off();
  }
}

await main();
