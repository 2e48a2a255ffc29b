// The shape of bench/results/latest.json, and the summaries (medians, ratios) built from the
// raw samples. Pure functions: the run loop only appends samples.
import type { LinkShare } from './link-share';
import type { MultiFile } from './multi-file';
import type { ScenarioName } from './options';
import type { Goal, Series, SeriesKey } from './samples';
import type { SmallFiles } from './small-files';
import { median, ratio } from './stats';

export interface SeriesSummary extends Series {
  ok: number;
  medianWallMs: number;
  medianRssKiB: number;
  maxRssKiB: number;
  medianSumRssKiB?: number;
  /** Files per second over the whole run (median time). */
  filesPerSecond: number;
  /** File bytes (10^6) per second over the whole run (median time). */
  mbPerSecond: number;
  /** Median CPU time (user + system) per run, ms. */
  medianCpuMs: number;
  /** CPU seconds per GiB of file bytes moved (median run). */
  cpuSecondsPerGiB: number;
  /** The load before the case was above NOISY_LOAD_PER_CORE per core. */
  noisy: boolean;
  errors: string[];
}

/** A run is marked noisy when the load average before it exceeds this per core. */
export const NOISY_LOAD_PER_CORE = 0.5;

function isNoisy(loadBefore: number | undefined, cpus: number | undefined): boolean {
  return loadBefore !== undefined && cpus !== undefined && loadBefore / cpus > NOISY_LOAD_PER_CORE;
}

export interface Pair {
  scenario: ScenarioName;
  caseLabel: string;
  a: SeriesKey;
  b: SeriesKey;
  /** median time A / median time B: below 1 means A is faster. */
  timeRatio: number;
  /** median peak RSS A / median peak RSS B. */
  rssRatio: number;
}

function sameKey(a: SeriesKey, b: SeriesKey): boolean {
  return (
    a.scenario === b.scenario &&
    a.caseLabel === b.caseLabel &&
    a.tool === b.tool &&
    a.target === b.target
  );
}

export function summarise(series: Series): SeriesSummary {
  const good = series.samples.filter((s) => s.error === undefined);
  const wall = median(good.map((s) => s.wallMs));
  const sums = good.map((s) => s.sumRssKiB).filter((v): v is number => v !== undefined);
  const cpu = median(good.map((s) => s.cpuMs).filter((v): v is number => v !== undefined));
  const gib = (series.files * series.fileBytes) / 2 ** 30;
  const loads = series.samples.map((s) => s.loadBefore).filter((v): v is number => v !== undefined);
  const load = series.loadBefore ?? (loads.length ? Math.max(...loads) : undefined);
  return {
    ...series,
    ok: good.length,
    medianWallMs: wall,
    medianRssKiB: median(good.map((s) => s.peakRssKiB)),
    maxRssKiB: good.length ? Math.max(...good.map((s) => s.peakRssKiB)) : Number.NaN,
    ...(sums.length ? { medianSumRssKiB: median(sums) } : {}),
    filesPerSecond: wall > 0 ? series.files / (wall / 1000) : Number.NaN,
    mbPerSecond: wall > 0 ? (series.files * series.fileBytes) / 1e6 / (wall / 1000) : Number.NaN,
    medianCpuMs: cpu,
    cpuSecondsPerGiB: gib > 0 ? cpu / 1000 / gib : Number.NaN,
    noisy: isNoisy(load, series.cpus),
    errors: [...new Set(series.samples.flatMap((s) => (s.error ? [s.error] : [])))],
  };
}

export function pairOf(summaries: SeriesSummary[], a: SeriesKey, b: SeriesKey): Pair | undefined {
  const sa = summaries.find((s) => sameKey(s, a));
  const sb = summaries.find((s) => sameKey(s, b));
  if (!sa || !sb) return undefined;
  return {
    scenario: a.scenario,
    caseLabel: a.caseLabel,
    a,
    b,
    timeRatio: ratio(sa.medianWallMs, sb.medianWallMs),
    rssRatio: ratio(sa.medianRssKiB, sb.medianRssKiB),
  };
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryBytes: number;
  os: string;
  node: string;
  curl: string;
  slackSdk: string;
}

export interface Results {
  date: string;
  command: string;
  machine: Machine;
  options: Record<string, unknown>;
  durationMs: number;
  series: SeriesSummary[];
  pairs: Pair[];
  goals: Goal[];
  /** Progress listeners' cost and the resting core (the latest measured of each). */
  extras?: Extras;
  notes: string[];
}

/** The engine with and without progress listeners, in one process (bench/clients/progress-cost.ts). */
export interface ProgressCost {
  fileBytes: number;
  runs: number;
  /** Median time of one upload, ms. */
  withMs: number;
  withoutMs: number;
  /** Median over the rounds of with / without (both ran back to back in each round). */
  pairedRatio?: number;
  /** Median over the rounds of a second run without listeners / without: the noise floor. */
  controlRatio?: number;
  /** Median CPU time (user + system) of one upload, ms. */
  withCpuMs?: number;
  withoutCpuMs?: number;
  /** Progress events per second of upload, with listeners (median run). */
  eventsPerSecond: number;
  /** The same over the 1 Gbit/s sink, where an upload takes seconds. */
  linkEventsPerSecond?: number;
  loadBefore?: number;
  cpus?: number;
  error?: string;
}

/** createAppService with a full history and queue (bench/clients/resting-core.ts). */
export interface RestingCore {
  historyEntries: number;
  queueItems: number;
  /** Median time of createAppService over `starts` fresh processes, ms. */
  startMs: number;
  /** Its CPU time (user + system), median, ms: what load moves least. */
  startCpuMs?: number;
  starts?: number;
  settledRssMB: number;
  settledHeapMB: number;
  uploads: number;
  afterUploadsRssMB: number;
  afterUploadsHeapMB: number;
  loadBefore?: number;
  cpus?: number;
  error?: string;
}

/** Whole CLI processes, paired run by run against `node -e 0` (bench/start-up.ts). */
export interface StartUp {
  pairs: number;
  /** Medians over the pairs, ms. */
  versionMs: number;
  versionNodeMs: number;
  /** Median over the pairs of `trayshare --version` / `node -e 0`. */
  versionRatio: number;
  versionCpuMs?: number;
  nodeCpuMs?: number;
  sendBytes: number;
  sendMs: number;
  sendNodeMs: number;
  /** Median over the pairs of (one small send) − (`node -e 0`), ms. */
  sendOverNodeMs: number;
  sendCpuMs?: number;
  /** Runs of ours that failed (left out of the pairs). */
  failed?: number;
  loadBefore?: number;
  cpus?: number;
  error?: string;
}

/** A share handed to the running core until its first bytes reach the sink (bench/clients/app-path.ts). */
export interface AppPath {
  runs: number;
  fileBytes: number;
  /** Median, ms. */
  firstByteMs: number;
  samplesMs?: number[];
  loadBefore?: number;
  cpus?: number;
  error?: string;
}

export interface Extras {
  progress?: ProgressCost;
  core?: RestingCore;
  startup?: StartUp;
  appPath?: AppPath;
  smallFiles?: SmallFiles;
  multiFile?: MultiFile;
  linkShare?: LinkShare;
}
