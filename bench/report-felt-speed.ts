// The start-up and app's-path tables of the report, beside the other extras.
import type { Extras } from './results';
import type { Table } from './table';

const f = (n: number | undefined, digits: number) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '–';

function load(x: { loadBefore?: number; cpus?: number }): string {
  if (x.loadBefore === undefined) return '–';
  const noisy = x.cpus !== undefined && x.loadBefore / x.cpus > 0.5;
  return `${x.loadBefore.toFixed(2)}${noisy ? ' noisy' : ''}`;
}

export const START_UP_TITLE =
  'Start-up: whole CLI processes, paired run by run against `node -e 0` (medians over the pairs)';
export const APP_PATH_TITLE =
  "The app's path: a share handed to the running core until its first byte reaches the sink";

export function feltSpeedTables(extras: Extras | undefined): Table[] {
  const out: Table[] = [];
  const s = extras?.startup;
  if (s) {
    out.push({
      title: START_UP_TITLE,
      headers: [
        'Command',
        'Pairs',
        'Trayshare',
        'node -e 0',
        'Ratio',
        'Difference',
        'CPU',
        'Load before',
      ],
      numeric: [false, true, true, true, true, true, true, true],
      rows: [
        [
          'trayshare --version',
          String(s.pairs),
          `${f(s.versionMs, 1)} ms`,
          `${f(s.versionNodeMs, 1)} ms`,
          `${f(s.versionRatio, 2)}×`,
          `${f(s.versionMs - s.versionNodeMs, 1)} ms`,
          `${f(s.versionCpuMs, 0)} ms`,
          load(s),
        ],
        [
          `send --base-url, ${Math.round(s.sendBytes / 1000)} KB (sink)`,
          String(s.pairs),
          `${f(s.sendMs, 1)} ms`,
          `${f(s.sendNodeMs, 1)} ms`,
          `${f(s.sendMs / s.sendNodeMs, 2)}×`,
          `${f(s.sendOverNodeMs, 1)} ms`,
          `${f(s.sendCpuMs, 0)} ms`,
          load(s),
        ],
      ],
    });
  }
  const a = extras?.appPath;
  if (a) {
    out.push({
      title: APP_PATH_TITLE,
      headers: ['File', 'Shares', 'To first byte (median)', 'Fastest', 'Slowest', 'Load before'],
      numeric: [true, true, true, true, true, true],
      rows: [
        [
          `${Math.round(a.fileBytes / 1000)} KB`,
          String(a.runs),
          Number.isFinite(a.firstByteMs) ? `${a.firstByteMs.toFixed(1)} ms` : (a.error ?? '–'),
          a.samplesMs?.length ? `${Math.min(...a.samplesMs).toFixed(1)} ms` : '–',
          a.samplesMs?.length ? `${Math.max(...a.samplesMs).toFixed(1)} ms` : '–',
          load(a),
        ],
      ],
    });
  }
  return out;
}
