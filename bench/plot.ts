// A hand-built SVG of the results (no plotting library): grouped bars per case, one colour per
// client, the value written on each bar, and the target drawn as a dashed line where one applies.
import { TOOL_LABELS, type ToolId } from './clients';
import { RSS_LIMIT_MB } from './goals';
import type { Results, SeriesSummary } from './results';
import { rssMegabytes, sizeLabel } from './stats';
import { TARGET_LABELS } from './targets';

interface Bar {
  tool: ToolId;
  value: number;
}

interface BarGroup {
  label: string;
  bars: Bar[];
}

export interface Chart {
  title: string;
  groups: BarGroup[];
  /** Printed on each bar after the value. */
  unit: string;
  digits: number;
  limit?: { value: number; label: string };
  /** Logarithmic axis (powers of ten), for values that span orders of magnitude. */
  log?: boolean;
}

const COLORS: Record<ToolId, string> = {
  trayshare: '#2563eb',
  'trayshare-external': '#1e3a8a',
  curl: '#16a34a',
  'curl-loop': '#0f766e',
  'curl-next': '#86efac',
  'slack-sdk': '#f59e0b',
  'slack-sdk-v2': '#dc2626',
  'node-pipe': '#9ca3af',
};

const WIDTH = 960;
const CHART_HEIGHT = 230;
const LEFT = 70;
const RIGHT = 20;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A round axis maximum at or above `value`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * power) return step * power;
  }
  return 10 * power;
}

function formatValue(value: number, digits: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(digits);
}

function chartSvg(chart: Chart, top: number): string {
  const plotTop = top + 34;
  const plotHeight = CHART_HEIGHT - 70;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const values = chart.groups.flatMap((g) => g.bars.map((b) => b.value)).filter(Number.isFinite);
  const top1 = Math.max(...values, chart.limit?.value ?? 0, 0);
  let ticks: number[];
  let y: (v: number) => number;
  const bottom = plotTop + plotHeight;
  if (chart.log) {
    const positive = values.filter((v) => v > 0);
    const lo = 10 ** Math.floor(Math.log10(Math.min(...positive, chart.limit?.value ?? 1)));
    const hi = 10 ** Math.ceil(Math.log10(top1 * 1.5));
    ticks = [];
    for (let v = lo; v <= hi * 1.0001; v *= 10) ticks.push(v);
    const span = Math.log10(hi) - Math.log10(lo);
    // Bars start at the axis (the lowest power of ten), so a bar's height is its order of magnitude.
    y = (v: number) =>
      bottom - ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / span) * plotHeight;
  } else {
    // Four gridline steps of a round size, with room above the tallest bar for its label.
    const step = niceCeiling((top1 * 1.08) / 4);
    ticks = [0, 1, 2, 3, 4].map((i) => step * i);
    y = (v: number) => bottom - (v / (step * 4)) * plotHeight;
  }
  const parts: string[] = [];
  const limitNote = chart.limit ? `  (dashed: ${chart.limit.label})` : '';
  parts.push(
    `<text x="${LEFT}" y="${top + 18}" font-size="15" font-weight="600" ${FONT}>${escapeXml(chart.title)}<tspan font-size="12" font-weight="400" fill="#b91c1c">${escapeXml(limitNote)}</tspan></text>`,
  );
  for (const v of ticks) {
    const yy = y(v).toFixed(1);
    parts.push(
      `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${yy}" y2="${yy}" stroke="#e5e7eb"/>`,
      `<text x="${LEFT - 6}" y="${yy}" dy="4" text-anchor="end" font-size="11" fill="#4b5563" ${FONT}>${Number(v.toFixed(2))}</text>`,
    );
  }
  const groupWidth = plotWidth / Math.max(1, chart.groups.length);
  chart.groups.forEach((group, gi) => {
    const n = Math.max(1, group.bars.length);
    const barWidth = Math.min(70, (groupWidth * 0.8) / n);
    const start = LEFT + gi * groupWidth + (groupWidth - barWidth * n) / 2;
    group.bars.forEach((bar, bi) => {
      const x = start + bi * barWidth;
      const cx = (x + barWidth / 2).toFixed(1);
      if (!Number.isFinite(bar.value)) {
        parts.push(
          `<text x="${cx}" y="${(plotTop + plotHeight - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#b91c1c" ${FONT}>failed</text>`,
        );
        return;
      }
      const top = y(bar.value);
      parts.push(
        `<rect x="${(x + 2).toFixed(1)}" y="${top.toFixed(1)}" width="${(barWidth - 4).toFixed(1)}" height="${(bottom - top).toFixed(1)}" fill="${COLORS[bar.tool]}"><title>${escapeXml(`${TOOL_LABELS[bar.tool]}: ${formatValue(bar.value, chart.digits)} ${chart.unit}`)}</title></rect>`,
        `<text x="${cx}" y="${(top - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#111827" ${FONT}>${formatValue(bar.value, chart.digits)}</text>`,
      );
    });
    parts.push(
      `<text x="${(LEFT + gi * groupWidth + groupWidth / 2).toFixed(1)}" y="${plotTop + plotHeight + 16}" text-anchor="middle" font-size="12" fill="#111827" ${FONT}>${escapeXml(group.label)}</text>`,
    );
  });
  if (chart.limit) {
    const yy = y(chart.limit.value).toFixed(1);
    parts.push(
      `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${yy}" y2="${yy}" stroke="#b91c1c" stroke-dasharray="6 4"/>`,
    );
  }
  parts.push(
    `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${plotTop + plotHeight}" y2="${plotTop + plotHeight}" stroke="#6b7280"/>`,
    `<text x="14" y="${plotTop + plotHeight / 2}" transform="rotate(-90 14 ${plotTop + plotHeight / 2})" text-anchor="middle" font-size="11" fill="#4b5563" ${FONT}>${escapeXml(chart.log ? `${chart.unit} (log scale)` : chart.unit)}</text>`,
  );
  return parts.join('\n');
}

const LEGEND_ROW = 18;

/** The legend, wrapped to the width; returns the SVG and how many rows it took. */
function legendSvg(tools: ToolId[], top: number): { svg: string; rows: number } {
  const parts: string[] = [];
  let x = LEFT;
  let y = top;
  let rows = 1;
  for (const tool of tools) {
    const label = TOOL_LABELS[tool];
    const w = 24 + label.length * 6.6;
    if (x + w > WIDTH - RIGHT && x > LEFT) {
      x = LEFT;
      y += LEGEND_ROW;
      rows++;
    }
    parts.push(
      `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${COLORS[tool]}"/>`,
      `<text x="${x + 16}" y="${y}" font-size="12" fill="#111827" ${FONT}>${escapeXml(label)}</text>`,
    );
    x += w + 12;
  }
  return { svg: parts.join('\n'), rows };
}

export function renderSvg(charts: Chart[], subtitle: string): string {
  const tools = [
    ...new Set(charts.flatMap((c) => c.groups.flatMap((g) => g.bars.map((b) => b.tool)))),
  ];
  const legend = legendSvg(tools, 46);
  const header = 46 + legend.rows * LEGEND_ROW;
  const height = header + charts.length * CHART_HEIGHT + 10;
  const body = charts.map((c, i) => chartSvg(c, header + i * CHART_HEIGHT)).join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Trayshare benchmark results">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="22" font-size="13" fill="#4b5563" ${FONT}>${escapeXml(subtitle)}</text>`,
    legend.svg,
    body,
    '</svg>',
    '',
  ].join('\n');
}

function byCase(rows: SeriesSummary[], scenario: string, target: string): SeriesSummary[] {
  return rows.filter((s) => s.scenario === scenario && s.target === target);
}

/** The charts REPORT.md shows: one-file time and RSS per size, small-file rate, files at once. */
export function chartsFor(results: Results): Chart[] {
  const rows = results.series;
  const charts: Chart[] = [];
  const oneFile = [...byCase(rows, 'large', 'sink'), ...byCase(rows, 'external', 'sink')];
  const sizes = [...new Set(oneFile.map((s) => s.fileBytes))].sort((a, b) => a - b);
  const groupsOf = (value: (s: SeriesSummary) => number): BarGroup[] =>
    sizes.map((size) => ({
      label: sizeLabel(size),
      bars: oneFile
        .filter((s) => s.fileBytes === size)
        .map((s) => ({ tool: s.tool, value: s.ok ? value(s) : Number.NaN })),
    }));
  if (oneFile.length) {
    charts.push({
      title: 'One file to the sink: wall time (median, lower is better)',
      unit: 's',
      digits: 2,
      groups: groupsOf((s) => s.medianWallMs / 1000),
    });
    charts.push({
      title: 'One file to the sink: CPU seconds per GiB, user + system (median, lower is better)',
      unit: 's/GiB',
      digits: 2,
      groups: groupsOf((s) => s.cpuSecondsPerGiB),
    });
    charts.push({
      title: 'One file to the sink: peak RSS (median, lower is better)',
      unit: 'MB',
      digits: 0,
      log: true,
      groups: groupsOf((s) => rssMegabytes(s.medianRssKiB)),
      limit: { value: RSS_LIMIT_MB, label: `trayshare's target, ${RSS_LIMIT_MB} MB` },
    });
  }
  const small = rows.filter((s) => s.scenario === 'small');
  if (small.length) {
    const targets = [...new Set(small.map((s) => s.target))];
    charts.push({
      title: `${small[0]!.caseLabel}: files per second (median, higher is better)`,
      unit: 'files/s',
      digits: 0,
      groups: targets.map((t) => ({
        label: TARGET_LABELS[t],
        bars: small
          .filter((s) => s.target === t)
          .map((s) => ({ tool: s.tool, value: s.ok ? s.filesPerSecond : Number.NaN })),
      })),
    });
  }
  const together = rows.filter((s) => s.scenario === 'concurrent');
  if (together.length) {
    const targets = [...new Set(together.map((s) => s.target))];
    charts.push({
      title: `${together[0]!.caseLabel}: wall time (median, lower is better)`,
      unit: 's',
      digits: 2,
      groups: targets.map((t) => ({
        label: TARGET_LABELS[t],
        bars: together
          .filter((s) => s.target === t)
          .map((s) => ({ tool: s.tool, value: s.ok ? s.medianWallMs / 1000 : Number.NaN })),
      })),
    });
  }
  return charts;
}
