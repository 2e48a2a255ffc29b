// The targets of speed where people feel it (start-up, the app's path, a share's fixed
// overhead), judged from one run against their yardsticks. Start-up and the fixed overhead are paired run by run (bench/paired.ts); a target
// whose figures this run did not make is listed as "not measured", never left out.
import { pairedFigures } from './paired';
import type { AppPath, SeriesSummary, StartUp } from './results';
import type { Goal } from './samples';

const VERSION_RATIO_LIMIT = 1.25;
const SMALL_SEND_OVER_NODE_MS = 40;
const FIXED_OVERHEAD_RATIO_LIMIT = 1.15;
const FIXED_OVERHEAD_BYTES = 256 * 2 ** 20;
const APP_FIRST_BYTE_LIMIT_MS = 30;

function loadNote(x: { loadBefore?: number; cpus?: number }): string {
  if (x.loadBefore === undefined || x.cpus === undefined) return '';
  const noisy = x.loadBefore / x.cpus > 0.5;
  return ` [load ${x.loadBefore.toFixed(2)} on ${x.cpus} cores before${noisy ? ': noisy' : ''}]`;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export function startUpGoals(s: StartUp | undefined): Goal[] {
  const version: Goal = {
    id: 'startup-version',
    target: `start-up: \`trayshare --version\` within ${VERSION_RATIO_LIMIT}× of \`node -e 0\` (whole processes, paired)`,
    measured: 'not measured',
    pass: undefined,
  };
  const send: Goal = {
    id: 'startup-small-send',
    target: `start-up: one 200 KB file (\`send --base-url\`, sink) within \`node -e 0\` + ${SMALL_SEND_OVER_NODE_MS} ms (whole processes, paired)`,
    measured: 'not measured',
    pass: undefined,
  };
  if (!s) return [version, send];
  const note = loadNote(s);
  const failed = s.failed ? `; ${s.failed} failed runs left out (${s.error ?? ''})` : '';
  if (Number.isFinite(s.versionRatio)) {
    version.pass = s.versionRatio <= VERSION_RATIO_LIMIT;
    version.measured = `${s.pairs} pairs: median ratio ${s.versionRatio.toFixed(2)}× (${ms(s.versionMs)} vs ${ms(s.versionNodeMs)}; CPU ${ms(s.versionCpuMs ?? Number.NaN)} vs ${ms(s.nodeCpuMs ?? Number.NaN)})${note}`;
  }
  if (Number.isFinite(s.sendOverNodeMs)) {
    send.pass = s.sendOverNodeMs <= SMALL_SEND_OVER_NODE_MS;
    send.measured = `${s.pairs} pairs: median +${ms(s.sendOverNodeMs)} over node -e 0 (${ms(s.sendMs)} vs ${ms(s.sendNodeMs)}; CPU ${ms(s.sendCpuMs ?? Number.NaN)})${failed}${note}`;
  } else if (s.error) {
    send.measured = `failed: ${s.error}`;
  }
  return [version, send];
}

function samplesOf(summaries: SeriesSummary[], tool: string): number[] | undefined {
  const s = summaries.find(
    (x) =>
      x.scenario === 'large' &&
      x.tool === tool &&
      x.target === 'sink' &&
      x.fileBytes === FIXED_OVERHEAD_BYTES,
  );
  return s?.samples.map((x) => (x.error ? Number.NaN : x.wallMs));
}

/** 256 MiB to the sink: trayshare against curl, round by round (both ran in every round). */
export function fixedOverheadGoal(summaries: SeriesSummary[]): Goal {
  const target = `fixed overhead per share: 256 MiB to the sink at most ${FIXED_OVERHEAD_RATIO_LIMIT}× curl's time (paired by round)`;
  const ours = samplesOf(summaries, 'trayshare');
  const curl = samplesOf(summaries, 'curl');
  if (!ours || !curl) {
    return {
      id: 'fixed-overhead',
      target,
      measured: 'not measured (needs --sizes with 256M)',
      pass: undefined,
    };
  }
  const f = pairedFigures(ours, curl);
  if (f.pairs === 0)
    return { id: 'fixed-overhead', target, measured: 'no round with both', pass: undefined };
  const series = summaries.find(
    (x) => x.scenario === 'large' && x.fileBytes === FIXED_OVERHEAD_BYTES,
  );
  const noisy = series?.noisy ? ' [noisy: load above 0.5 per core before the case]' : '';
  return {
    id: 'fixed-overhead',
    target,
    measured: `${f.pairs} rounds: median ratio ${f.ratio.toFixed(2)}× (${(f.medianA / 1000).toFixed(3)} s vs ${(f.medianB / 1000).toFixed(3)} s; ${f.difference.toFixed(0)} ms more per share)${noisy}`,
    pass: f.ratio <= FIXED_OVERHEAD_RATIO_LIMIT,
  };
}

export function appPathGoal(a: AppPath | undefined): Goal {
  const target = `the app's path: a share handed to the running core (createAppService + share, as the shell does) until its first byte reaches the sink, under ${APP_FIRST_BYTE_LIMIT_MS} ms`;
  if (!a) return { id: 'app-path', target, measured: 'not measured', pass: undefined };
  if (a.error || !Number.isFinite(a.firstByteMs)) {
    return {
      id: 'app-path',
      target,
      measured: `failed: ${a.error ?? 'no figure'}`,
      pass: undefined,
    };
  }
  const spread = a.samplesMs?.length
    ? ` (fastest ${Math.min(...a.samplesMs).toFixed(1)}, slowest ${Math.max(...a.samplesMs).toFixed(1)})`
    : '';
  return {
    id: 'app-path',
    target,
    measured: `median ${ms(a.firstByteMs)} over ${a.runs} shares of 200 KB${spread}${loadNote(a)}`,
    pass: a.firstByteMs < APP_FIRST_BYTE_LIMIT_MS,
  };
}

/**
 * Issue 25's targets measured by the "many small files" and "several files" work: listed as
 * not measured unless a goal with the same id is already there, so the report shows the gap.
 */
const OTHER_ISSUE_25_TARGETS: { id: string; target: string }[] = [
  {
    id: 'small-next-rate',
    target:
      "many small files: trayshare send at least 0.8× `curl --next`'s per-file rate (keep-alive, sink)",
  },
  {
    id: 'multi-file-time',
    target:
      "a share of several files: ten 2 MB screenshots, external protocol, 50 ms round trip: start to posted at most 0.8× @slack/web-api's filesUploadV2 (same run)",
  },
  {
    id: 'multi-file-parallel',
    target:
      'a share of several files: steps 1–2 run in parallel within a share, within the concurrency setting',
  },
];

export function feltSpeedGoals(
  summaries: SeriesSummary[],
  extras: { startup?: StartUp; appPath?: AppPath },
  existing: Goal[],
): Goal[] {
  const have = new Set(existing.map((g) => g.id));
  return [
    ...startUpGoals(extras.startup),
    fixedOverheadGoal(summaries),
    appPathGoal(extras.appPath),
    ...OTHER_ISSUE_25_TARGETS.filter((t) => !have.has(t.id)).map((t) => ({
      ...t,
      measured: 'not measured (the many-files / multi-file work adds this figure)',
      pass: undefined,
    })),
  ];
}
