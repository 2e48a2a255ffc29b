// The issue's targets, checked against the medians and stated plainly: pass, fail (by how
// much), or not measured in this run.
import type { Goal, SeriesSummary } from './results';
import { formatRatio, formatRss, rssMegabytes, sizeLabel } from './stats';

export const TIME_RATIO_LIMIT = 1.1;
export const RSS_LIMIT_MB = 150;
/** "Flat": the median peak RSS grows by at most this share from the smallest to the largest file. */
export const FLAT_GROWTH_LIMIT = 0.1;
const GIB = 2 ** 30;

function find(
  summaries: SeriesSummary[],
  scenario: string,
  tool: string,
  target = 'sink',
): SeriesSummary[] {
  return summaries.filter(
    (s) => s.scenario === scenario && s.tool === tool && s.target === target && s.ok > 0,
  );
}

function seconds(s: SeriesSummary): string {
  return `${(s.medianWallMs / 1000).toFixed(2)} s`;
}

function timeGoal(summaries: SeriesSummary[]): Goal {
  const target = `1 GiB: trayshare send at most ${TIME_RATIO_LIMIT}× curl's time (sink)`;
  const ours = find(summaries, 'large', 'trayshare').find((s) => s.fileBytes === GIB);
  const curl = find(summaries, 'large', 'curl').find((s) => s.fileBytes === GIB);
  if (!ours || !curl) {
    return {
      id: 'time-1g',
      target,
      measured: 'not measured (1G not among --sizes, or a tool failed)',
      pass: undefined,
    };
  }
  const r = ours.medianWallMs / curl.medianWallMs;
  const pass = r <= TIME_RATIO_LIMIT;
  let measured = `${formatRatio(r)} (${seconds(ours)} vs ${seconds(curl)})${pass ? '' : `: ${((r / TIME_RATIO_LIMIT - 1) * 100).toFixed(0)}% over the limit`}`;
  const oursLink = find(summaries, 'large', 'trayshare', 'link').find((s) => s.fileBytes === GIB);
  const curlLink = find(summaries, 'large', 'curl', 'link').find((s) => s.fileBytes === GIB);
  if (oursLink && curlLink) {
    measured += `; over a 1 Gbit/s link ${formatRatio(oursLink.medianWallMs / curlLink.medianWallMs)} (${seconds(oursLink)} vs ${seconds(curlLink)})`;
  }
  return { id: 'time-1g', target, measured, pass };
}

function rssGoal(summaries: SeriesSummary[]): Goal {
  const target = `trayshare send peak RSS at most ${RSS_LIMIT_MB} MB at every size (largest single run, sink and service)`;
  const runs = [
    ...find(summaries, 'large', 'trayshare'),
    ...find(summaries, 'large', 'trayshare', 'service'),
  ];
  if (runs.length === 0)
    return { id: 'rss-150', target, measured: 'not measured', pass: undefined };
  const worst = runs.reduce((a, b) => (b.maxRssKiB > a.maxRssKiB ? b : a));
  const mb = rssMegabytes(worst.maxRssKiB);
  const pass = mb <= RSS_LIMIT_MB;
  const measured = `largest ${formatRss(worst.maxRssKiB)} (${worst.caseLabel}, ${worst.target})${pass ? '' : `: ${(mb - RSS_LIMIT_MB).toFixed(0)} MB over`}`;
  return { id: 'rss-150', target, measured, pass };
}

function flatGoal(summaries: SeriesSummary[]): Goal {
  const target = `trayshare send peak RSS flat as the file grows (median grows at most ${FLAT_GROWTH_LIMIT * 100}% from smallest to largest size, sink)`;
  const runs = find(summaries, 'large', 'trayshare').sort((a, b) => a.fileBytes - b.fileBytes);
  if (runs.length < 2) {
    return {
      id: 'rss-flat',
      target,
      measured: 'not measured (needs two sizes or more)',
      pass: undefined,
    };
  }
  const small = runs[0]!;
  const large = runs[runs.length - 1]!;
  const growth = large.medianRssKiB / small.medianRssKiB - 1;
  const pass = growth <= FLAT_GROWTH_LIMIT;
  const measured = `${runs.map((r) => `${sizeLabel(r.fileBytes)} ${formatRss(r.medianRssKiB)}`).join(', ')} (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%)`;
  return { id: 'rss-flat', target, measured, pass };
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

function externalGoal(summaries: SeriesSummary[]): Goal {
  const target = `external protocol: trayshare send --protocol external peak RSS at most ${RSS_LIMIT_MB} MB at every size (sink)`;
  const ours = find(summaries, 'external', 'trayshare-external');
  const sdk = find(summaries, 'external', 'slack-sdk-v2');
  const perSize = (rows: SeriesSummary[]) =>
    rows.map((s) => `${s.caseLabel} ${formatRss(s.medianRssKiB)}`).join(', ');
  const sdkText = sdk.length
    ? `Slack SDK filesUploadV2: ${perSize(sdk)}`
    : 'filesUploadV2 not measured';
  if (ours.length === 0) {
    return {
      id: 'external-rss',
      target,
      measured: `TODO: the CLI has no external mode yet; ${sdkText}`,
      pass: undefined,
    };
  }
  const worst = Math.max(...ours.map((s) => s.maxRssKiB));
  const pass = rssMegabytes(worst) <= RSS_LIMIT_MB;
  return {
    id: 'external-rss',
    target,
    measured: `largest ${formatRss(worst)} (medians ${perSize(ours)}); ${sdkText}`,
    pass,
  };
}

export function evaluateGoals(summaries: SeriesSummary[]): Goal[] {
  return [
    timeGoal(summaries),
    rssGoal(summaries),
    flatGoal(summaries),
    smallGoal(summaries),
    externalGoal(summaries),
  ];
}
