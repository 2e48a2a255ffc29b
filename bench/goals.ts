// The issue's targets, checked against the medians and stated plainly: pass, fail (by how
// much), or not measured in this run. A figure from a case whose load before it was high is
// marked "noisy", so nobody reads a busy run as a regression.
import { feltSpeedGoals } from './goals-felt-speed';
import { linkShareGoals } from './link-share';
import { multiFileGoal, multiFileParallelGoal } from './multi-file';
import type { Extras, ProgressCost, RestingCore, SeriesSummary } from './results';
import type { Goal } from './samples';
import { smallFilesGoals } from './small-files';
import { formatRatio, formatRss, rssMegabytes, sizeLabel } from './stats';

const TIME_RATIO_LIMIT = 1.1;
const CPU_RATIO_LIMIT = 1.5;
export const RSS_LIMIT_MB = 64;
/** "Flat": the median peak RSS grows by at most this from the smallest to the largest file. */
const FLAT_GROWTH_LIMIT_MB = 4;
/** Throughput with progress listeners attached: at most this much below without. */
const PROGRESS_COST_LIMIT = 0.02;
const PROGRESS_MIN_PER_SECOND = 4;
const CORE_START_LIMIT_MS = 150;
const CORE_HEAP_LIMIT_MB = 20;

function find(
  summaries: SeriesSummary[],
  scenario: string,
  tool: string,
  target = 'sink',
): SeriesSummary[] {
  return summaries
    .filter((s) => s.scenario === scenario && s.tool === tool && s.target === target && s.ok > 0)
    .sort((a, b) => a.fileBytes - b.fileBytes);
}

function seconds(s: SeriesSummary): string {
  return `${(s.medianWallMs / 1000).toFixed(2)} s`;
}

function noisyMark(rows: SeriesSummary[]): string {
  return rows.some((s) => s.noisy) ? ' [noisy: load above 0.5 per core before a case]' : '';
}

/** Each size measured for both: ours against theirs by `value`, at most `limit`×. */
function perSize(
  summaries: SeriesSummary[],
  id: string,
  target: string,
  value: (s: SeriesSummary) => number,
  show: (s: SeriesSummary) => string,
  limit: number,
): Goal {
  const ours = find(summaries, 'large', 'trayshare');
  const curl = find(summaries, 'large', 'curl');
  const both = ours.flatMap((o) => {
    const c = curl.find((x) => x.fileBytes === o.fileBytes);
    return c && Number.isFinite(value(o)) && Number.isFinite(value(c)) ? [[o, c] as const] : [];
  });
  if (both.length === 0) return { id, target, measured: 'not measured', pass: undefined };
  const parts = both.map(([o, c]) => {
    const r = value(o) / value(c);
    return { r, text: `${o.caseLabel} ${formatRatio(r)} (${show(o)} vs ${show(c)})` };
  });
  const worst = Math.max(...parts.map((p) => p.r));
  const pass = worst <= limit;
  const measured = `${parts.map((p) => p.text).join('; ')}${pass ? '' : `: worst ${((worst / limit - 1) * 100).toFixed(0)}% over the limit`}${noisyMark(both.flat())}`;
  return { id, target, measured, pass };
}

function timeGoal(summaries: SeriesSummary[]): Goal {
  const g = perSize(
    summaries,
    'time',
    `trayshare send at most ${TIME_RATIO_LIMIT}× curl's time at every size (sink)`,
    (s) => s.medianWallMs,
    seconds,
    TIME_RATIO_LIMIT,
  );
  const oursLink = find(summaries, 'large', 'trayshare', 'link')[0];
  const curlLink = find(summaries, 'large', 'curl', 'link')[0];
  if (g.pass !== undefined && oursLink && curlLink) {
    g.measured += `; over a 1 Gbit/s link (${oursLink.caseLabel}) ${formatRatio(oursLink.medianWallMs / curlLink.medianWallMs)} (${seconds(oursLink)} vs ${seconds(curlLink)})`;
  }
  return g;
}

function cpuGoal(summaries: SeriesSummary[]): Goal {
  return perSize(
    summaries,
    'cpu',
    `trayshare send at most ${CPU_RATIO_LIMIT}× curl's CPU seconds per GiB (user + system) at every size (sink)`,
    (s) => s.cpuSecondsPerGiB,
    (s) => `${s.cpuSecondsPerGiB.toFixed(2)} s/GiB`,
    CPU_RATIO_LIMIT,
  );
}

function rssGoals(
  label: string,
  idPrefix: string,
  runs: SeriesSummary[],
  flatRuns: SeriesSummary[],
  extra = '',
): Goal[] {
  const target = `${label} peak RSS at most ${RSS_LIMIT_MB} MB at every size (largest single run)`;
  const flatTarget = `${label} peak RSS flat: the median grows at most ${FLAT_GROWTH_LIMIT_MB} MB from the smallest to the largest size (sink)`;
  const goals: Goal[] = [];
  if (runs.length === 0) {
    goals.push({ id: `${idPrefix}rss`, target, measured: `not measured${extra}`, pass: undefined });
  } else {
    const worst = runs.reduce((a, b) => (b.maxRssKiB > a.maxRssKiB ? b : a));
    const mb = rssMegabytes(worst.maxRssKiB);
    const pass = mb <= RSS_LIMIT_MB;
    goals.push({
      id: `${idPrefix}rss`,
      target,
      measured: `largest ${formatRss(worst.maxRssKiB)} (${worst.caseLabel}, ${worst.target})${pass ? '' : `: ${(mb - RSS_LIMIT_MB).toFixed(0)} MB over`}${extra}`,
      pass,
    });
  }
  if (flatRuns.length < 2) {
    goals.push({
      id: `${idPrefix}rss-flat`,
      target: flatTarget,
      measured: 'not measured (needs two sizes or more)',
      pass: undefined,
    });
  } else {
    const small = flatRuns[0]!;
    const large = flatRuns[flatRuns.length - 1]!;
    const growth = rssMegabytes(large.medianRssKiB) - rssMegabytes(small.medianRssKiB);
    const pass = growth <= FLAT_GROWTH_LIMIT_MB;
    goals.push({
      id: `${idPrefix}rss-flat`,
      target: flatTarget,
      measured: `${flatRuns.map((r) => `${sizeLabel(r.fileBytes)} ${formatRss(r.medianRssKiB)}`).join(', ')} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB)`,
      pass,
    });
  }
  return goals;
}

function smallGoal(summaries: SeriesSummary[]): Goal {
  const target = "small files: trayshare send at least the curl loop's per-file rate (sink)";
  const ours = find(summaries, 'small', 'trayshare')[0];
  const curl = find(summaries, 'small', 'curl-loop')[0];
  if (!ours || !curl)
    return { id: 'small-rate', target, measured: 'not measured', pass: undefined };
  const r = ours.filesPerSecond / curl.filesPerSecond;
  const pass = r >= 1;
  const measured = `${ours.filesPerSecond.toFixed(0)} vs ${curl.filesPerSecond.toFixed(0)} files/s (${formatRatio(r)})${pass ? '' : `: ${((1 - r) * 100).toFixed(0)}% short`}`;
  return { id: 'small-rate', target, measured, pass };
}

function loadNote(x: { loadBefore?: number; cpus?: number }): string {
  if (x.loadBefore === undefined || x.cpus === undefined) return '';
  return x.loadBefore / x.cpus > 0.5 ? ` [noisy: load ${x.loadBefore.toFixed(2)} before]` : '';
}

function signedPercent(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}

function cpuText(p: ProgressCost): string {
  if (p.withCpuMs === undefined || p.withoutCpuMs === undefined) return '';
  return `; CPU ${(p.withCpuMs / 1000).toFixed(3)} s with vs ${(p.withoutCpuMs / 1000).toFixed(3)} s without`;
}

export function progressGoal(p: ProgressCost | undefined): Goal {
  const target = `progress costs nothing: with listeners, throughput within ${PROGRESS_COST_LIMIT * 100}% of without, and at least ${PROGRESS_MIN_PER_SECOND} events a second`;
  if (!p) return { id: 'progress', target, measured: 'not measured', pass: undefined };
  if (p.error) return { id: 'progress', target, measured: `failed: ${p.error}`, pass: undefined };
  // Round by round when the run has it (issue 25): a drift in load then cancels out.
  const slower = (p.pairedRatio ?? p.withMs / p.withoutMs) - 1;
  const rates = [p.eventsPerSecond, ...(p.linkEventsPerSecond ? [p.linkEventsPerSecond] : [])];
  const pass = slower <= PROGRESS_COST_LIMIT && Math.min(...rates) >= PROGRESS_MIN_PER_SECOND;
  const control =
    p.controlRatio !== undefined
      ? `; noise floor, without against a control without: ${signedPercent(p.controlRatio - 1)}`
      : '';
  const link =
    p.linkEventsPerSecond !== undefined
      ? `; ${p.linkEventsPerSecond.toFixed(1)} events/s over the 1 Gbit/s sink`
      : '';
  return {
    id: 'progress',
    target,
    measured: `${sizeLabel(p.fileBytes)} to the sink, ${p.runs} alternating runs each: ${(p.withMs / 1000).toFixed(3)} s with vs ${(p.withoutMs / 1000).toFixed(3)} s without (${signedPercent(slower)}${p.pairedRatio !== undefined ? ', median of the paired rounds' : ''})${control}${cpuText(p)}, ${p.eventsPerSecond.toFixed(1)} events/s${link}${loadNote(p)}`,
    pass,
  };
}

export function coreGoal(c: RestingCore | undefined): Goal {
  const target = `resting core (createAppService, ${c?.historyEntries ?? 5000}-entry history, ${c?.queueItems ?? 200}-item queue): under ${CORE_START_LIMIT_MS} ms to start and under ${CORE_HEAP_LIMIT_MB} MB of heap`;
  if (!c) return { id: 'resting-core', target, measured: 'not measured', pass: undefined };
  if (c.error)
    return { id: 'resting-core', target, measured: `failed: ${c.error}`, pass: undefined };
  const heap = Math.max(c.settledHeapMB, c.afterUploadsHeapMB);
  const pass = c.startMs < CORE_START_LIMIT_MS && heap < CORE_HEAP_LIMIT_MB;
  return {
    id: 'resting-core',
    target,
    measured: `start ${c.startMs.toFixed(0)} ms${c.starts ? ` (median of ${c.starts} fresh processes; CPU ${(c.startCpuMs ?? Number.NaN).toFixed(0)} ms)` : ''}; settled: heap ${c.settledHeapMB.toFixed(1)} MB, RSS ${c.settledRssMB.toFixed(0)} MB; after ${c.uploads} uploads: heap ${c.afterUploadsHeapMB.toFixed(1)} MB, RSS ${c.afterUploadsRssMB.toFixed(0)} MB${loadNote(c)}`,
    pass,
  };
}

export function evaluateGoals(summaries: SeriesSummary[], extras: Extras = {}): Goal[] {
  const external = find(summaries, 'external', 'trayshare-external');
  const sdk = find(summaries, 'external', 'slack-sdk-v2');
  const sdkText = sdk.length
    ? `; Slack SDK filesUploadV2: ${sdk.map((s) => `${s.caseLabel} ${formatRss(s.medianRssKiB)}`).join(', ')}`
    : '';
  const goals = [
    timeGoal(summaries),
    cpuGoal(summaries),
    ...rssGoals(
      'trayshare send',
      '',
      [
        ...find(summaries, 'large', 'trayshare'),
        ...find(summaries, 'large', 'trayshare', 'service'),
      ],
      find(summaries, 'large', 'trayshare'),
    ),
    ...rssGoals(
      'external protocol: trayshare send --protocol external',
      'external-',
      external,
      external,
      sdkText,
    ),
    smallGoal(summaries),
    ...smallFilesGoals(extras.smallFiles),
    multiFileGoal(extras.multiFile),
    multiFileParallelGoal(extras.multiFile),
    ...linkShareGoals(extras.linkShare),
    progressGoal(extras.progress),
    coreGoal(extras.core),
  ];
  return [...goals, ...feltSpeedGoals(summaries, extras, goals)];
}
