// Turns results into tables (stdout and REPORT.md share them) and writes REPORT.md.
import { TOOL_LABELS } from './clients';
import { LINK_SHARE_TITLE, linkShareTable } from './link-share';
import type { ScenarioName } from './options';
import { APP_PATH_TITLE, feltSpeedTables, START_UP_TITLE } from './report-felt-speed';
import {
  type Extras,
  NOISY_LOAD_PER_CORE,
  type Pair,
  type Results,
  type SeriesSummary,
} from './results';
import type { Goal, SeriesKey } from './samples';
import {
  formatRate,
  formatRatio,
  formatRss,
  formatSeconds,
  formatThroughput,
  sizeLabel,
} from './stats';
import { formatMarkdownTable, formatTable, type Table } from './table';
import { TARGET_LABELS } from './targets';

const SCENARIO_TITLES: Record<ScenarioName, string> = {
  large: 'One file, files.upload',
  small: 'Many small files, files.upload, rate limit off',
  concurrent: 'Large files at the same time, one process each, files.upload',
  external:
    "Slack's external protocol (getUploadURLExternal → upload_url → completeUploadExternal)",
  'multi-file': 'A share of ten 2 MB screenshots, external protocol, over a 50 ms round trip',
  'link-share': LINK_SHARE_TITLE,
  progress: 'Progress listeners: the engine in one process, with and without',
  core: "The core's resting cost (createAppService, a stand-in for the tray app's main process)",
  startup: START_UP_TITLE,
  'app-path': APP_PATH_TITLE,
  'photo-details':
    'Photo and video details removed vs sent as they are, trayshare send to the sink',
};

function runsCell(s: SeriesSummary): string {
  const total = s.samples.length;
  return s.ok === total ? `${s.ok}/${total}` : `${s.ok}/${total} ok`;
}

function loadCell(s: SeriesSummary): string {
  if (s.loadBefore === undefined) return '–';
  return `${s.loadBefore.toFixed(2)}${s.noisy ? ' noisy' : ''}`;
}

function seriesTable(scenario: ScenarioName, rows: SeriesSummary[]): Table {
  const small = scenario === 'small';
  const together = scenario === 'concurrent';
  const headers = [
    'Case',
    'Client',
    'Target',
    'Time (median)',
    small ? 'Rate' : 'Throughput',
    together ? 'Peak RSS (largest process)' : 'Peak RSS (median)',
    together ? 'Peak RSS (all processes)' : 'Peak RSS (max)',
    'CPU s/GiB',
    'Load before',
    'Runs',
  ];
  return {
    title: SCENARIO_TITLES[scenario],
    headers,
    numeric: [false, false, false, true, true, true, true, true, true, true],
    rows: rows.map((s) => [
      s.caseLabel,
      TOOL_LABELS[s.tool],
      TARGET_LABELS[s.target],
      s.ok ? formatSeconds(s.medianWallMs) : 'failed',
      s.ok ? (small ? formatRate(s.filesPerSecond) : formatThroughput(s.mbPerSecond)) : '–',
      s.ok ? formatRss(s.medianRssKiB) : '–',
      s.ok ? formatRss(together ? (s.medianSumRssKiB ?? Number.NaN) : s.maxRssKiB) : '–',
      s.ok && Number.isFinite(s.cpuSecondsPerGiB) ? s.cpuSecondsPerGiB.toFixed(2) : '–',
      loadCell(s),
      runsCell(s),
    ]),
  };
}

function side(k: SeriesKey, scenario: ScenarioName): string {
  const other =
    k.scenario !== scenario ? ` (${k.scenario === 'large' ? 'files.upload' : k.scenario})` : '';
  return `${TOOL_LABELS[k.tool]}${other} → ${TARGET_LABELS[k.target]}`;
}

function pairsTable(scenario: ScenarioName, pairs: Pair[]): Table {
  return {
    title: 'Ratios of medians (A / B; time below 1.00× means A is faster)',
    headers: ['Case', 'A', 'B', 'Time A/B', 'Peak RSS A/B'],
    numeric: [false, false, false, true, true],
    rows: pairs.map((p) => [
      p.caseLabel,
      side(p.a, scenario),
      side(p.b, scenario),
      formatRatio(p.timeRatio),
      formatRatio(p.rssRatio),
    ]),
  };
}

function verdict(g: Goal): string {
  return g.pass === undefined ? 'not measured' : g.pass ? 'PASS' : 'FAIL';
}

function goalsTable(goals: Goal[]): Table {
  return {
    title: 'Targets',
    headers: ['Result', 'Target', 'Measured'],
    rows: goals.map((g) => [verdict(g), g.target, g.measured]),
  };
}

function load(x: { loadBefore?: number; cpus?: number }): string {
  if (x.loadBefore === undefined) return '–';
  const noisy = x.cpus !== undefined && x.loadBefore / x.cpus > NOISY_LOAD_PER_CORE;
  return `${x.loadBefore.toFixed(2)}${noisy ? ' noisy' : ''}`;
}

const f = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** The progress-listener and resting-core figures, when measured. */
function extrasTables(extras: Extras | undefined): Table[] {
  const out: Table[] = [];
  const p = extras?.progress;
  if (p) {
    out.push({
      title: SCENARIO_TITLES.progress,
      headers: [
        'File',
        'Runs',
        'With listeners',
        'Without',
        'Cost',
        'Events/s (sink)',
        'Events/s (1 Gbit/s)',
        'Load before',
      ],
      numeric: [false, true, true, true, true, true, true, true],
      rows: [
        [
          sizeLabel(p.fileBytes),
          String(p.runs),
          formatSeconds(p.withMs),
          formatSeconds(p.withoutMs),
          Number.isFinite(p.pairedRatio ?? p.withMs / p.withoutMs)
            ? `${(((p.pairedRatio ?? p.withMs / p.withoutMs) - 1) * 100).toFixed(1)}%`
            : (p.error ?? '–'),
          f(p.eventsPerSecond, 1),
          f(p.linkEventsPerSecond ?? Number.NaN, 1),
          load(p),
        ],
      ],
    });
  }
  const c = extras?.core;
  if (c) {
    out.push({
      title: SCENARIO_TITLES.core,
      headers: [
        'History',
        'Queue',
        'Start',
        'Heap settled',
        'RSS settled',
        `Heap after ${c.uploads} uploads`,
        `RSS after ${c.uploads} uploads`,
        'Load before',
      ],
      numeric: [true, true, true, true, true, true, true, true],
      rows: [
        [
          String(c.historyEntries),
          String(c.queueItems),
          Number.isFinite(c.startMs) ? `${c.startMs.toFixed(0)} ms` : (c.error ?? '–'),
          `${f(c.settledHeapMB, 1)} MB`,
          `${f(c.settledRssMB, 0)} MB`,
          `${f(c.afterUploadsHeapMB, 1)} MB`,
          `${f(c.afterUploadsRssMB, 0)} MB`,
          load(c),
        ],
      ],
    });
  }
  out.push(...feltSpeedTables(extras));
  out.push(...linkShareTable(extras?.linkShare));
  return out;
}

function scenariosIn(results: Results): ScenarioName[] {
  const order: ScenarioName[] = ['large', 'small', 'concurrent', 'external'];
  return order.filter((s) => results.series.some((x) => x.scenario === s));
}

function errorsOf(rows: SeriesSummary[]): string[] {
  return rows.flatMap((s) =>
    s.errors.map(
      (e) => `${s.caseLabel}, ${TOOL_LABELS[s.tool]} → ${TARGET_LABELS[s.target]}: ${e}`,
    ),
  );
}

export function textReport(results: Results): string {
  const out: string[] = [];
  for (const scenario of scenariosIn(results)) {
    const rows = results.series.filter((s) => s.scenario === scenario);
    out.push(formatTable(seriesTable(scenario, rows)));
    const pairs = results.pairs.filter((p) => p.scenario === scenario);
    if (pairs.length) out.push(formatTable(pairsTable(scenario, pairs)));
    const errors = errorsOf(rows);
    if (errors.length)
      out.push(`Failed runs (not counted):\n${errors.map((e) => `  ${e}`).join('\n')}`);
  }
  for (const t of extrasTables(results.extras)) out.push(formatTable(t));
  out.push(formatTable(goalsTable(results.goals)));
  if (results.notes.length) out.push(results.notes.map((n) => `Note: ${n}`).join('\n'));
  return `${out.join('\n\n')}\n`;
}

export function machineLine(results: Results): string {
  const m = results.machine;
  return `${m.cpus} × ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB memory, ${m.os}; Node ${m.node}, ${m.curl}, ${m.slackSdk}`;
}

/** REPORT.md: generated from latest.json, plus the hand-written notes (bench/notes.md). */
export function markdownReport(results: Results, notes: string): string {
  const o = results.options as { runs?: number; sizes?: number[] };
  const out: string[] = [
    '# Trayshare upload benchmarks',
    '',
    '<!-- Generated by `npm run bench -- --report` from bench/results/latest.json; edit bench/notes.md for the text below the figures. -->',
    '',
    `- Date: ${results.date}`,
    `- Machine: ${machineLine(results)}`,
    `- Command: \`${results.command}\` (${Math.round(results.durationMs / 60_000)} min)`,
    `- Each client ran ${o.runs ?? '?'} times per case, the clients alternating in rotating order; figures are medians. Sizes: ${(o.sizes ?? []).map(sizeLabel).join(', ')}.`,
    '',
    '## Targets',
    '',
    formatMarkdownTable(goalsTable(results.goals)),
    '',
    '![Time and peak RSS per client and size](plot.svg)',
    '',
  ];
  for (const scenario of scenariosIn(results)) {
    const rows = results.series.filter((s) => s.scenario === scenario);
    out.push(
      `## ${SCENARIO_TITLES[scenario]}`,
      '',
      formatMarkdownTable(seriesTable(scenario, rows)),
      '',
    );
    const pairs = results.pairs.filter((p) => p.scenario === scenario);
    if (pairs.length) out.push(formatMarkdownTable(pairsTable(scenario, pairs)), '');
    const errors = errorsOf(rows);
    if (errors.length)
      out.push('Failed runs (not counted):', '', ...errors.map((e) => `- ${e}`), '');
  }
  for (const t of extrasTables(results.extras)) {
    out.push(`## ${t.title}`, '', formatMarkdownTable({ ...t, title: undefined }), '');
  }
  if (results.notes.length)
    out.push('## Notes from this run', '', ...results.notes.map((n) => `- ${n}`), '');
  out.push(notes.trim(), '');
  return out.join('\n');
}
