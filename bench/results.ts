// The shape of bench/results/latest.json, and the summaries (medians, ratios) built from the
// raw samples. Pure functions: the run loop only appends samples.
import type { ToolId } from './clients';
import type { ScenarioName } from './options';
import { median, ratio } from './stats';
import type { TargetName } from './targets';

export interface Sample {
  wallMs: number;
  /** Peak RSS of the process (the largest one when several ran together), KiB. */
  peakRssKiB: number;
  /** Several processes at once: their peaks added up, KiB. */
  sumRssKiB?: number;
  /** Set when the run does not count (a failed upload, missing bytes, a crash). */
  error?: string;
}

export interface SeriesKey {
  scenario: ScenarioName;
  /** "1 GiB", "500 × 10 KiB", "3 × 256 MiB at once". */
  caseLabel: string;
  tool: ToolId;
  target: TargetName;
}

export interface Series extends SeriesKey {
  /** Bytes per file. */
  fileBytes: number;
  /** Files moved per run (all processes together). */
  files: number;
  /** Processes started at once per run. */
  processes: number;
  samples: Sample[];
}

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
  errors: string[];
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

export function sameKey(a: SeriesKey, b: SeriesKey): boolean {
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
  return {
    ...series,
    ok: good.length,
    medianWallMs: wall,
    medianRssKiB: median(good.map((s) => s.peakRssKiB)),
    maxRssKiB: good.length ? Math.max(...good.map((s) => s.peakRssKiB)) : Number.NaN,
    ...(sums.length ? { medianSumRssKiB: median(sums) } : {}),
    filesPerSecond: wall > 0 ? series.files / (wall / 1000) : Number.NaN,
    mbPerSecond: wall > 0 ? (series.files * series.fileBytes) / 1e6 / (wall / 1000) : Number.NaN,
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

export interface Goal {
  id: 'time-1g' | 'rss-150' | 'rss-flat' | 'small-rate' | 'external-rss';
  target: string;
  measured: string;
  /** undefined: not measured in this run (say why in `measured`). */
  pass: boolean | undefined;
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
  notes: string[];
}
