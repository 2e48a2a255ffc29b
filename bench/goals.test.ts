import { describe, expect, it } from 'vitest';
import type { ToolId } from './clients';
import { coreGoal, evaluateGoals, progressGoal } from './goals';
import { summarise } from './results';
import type { Series } from './samples';
import type { TargetName } from './targets';

const GIB = 2 ** 30;
const MIB = 2 ** 20;

function series(
  scenario: Series['scenario'],
  tool: ToolId,
  fileBytes: number,
  wallMs: number[],
  rssMb: number,
  opts: { target?: TargetName; files?: number; caseLabel?: string } = {},
) {
  return summarise({
    scenario,
    caseLabel: opts.caseLabel ?? `${fileBytes}`,
    tool,
    target: opts.target ?? 'sink',
    fileBytes,
    files: opts.files ?? 1,
    processes: 1,
    samples: wallMs.map((w) => ({ wallMs: w, peakRssKiB: (rssMb * 1e6) / 1024 })),
  });
}

function goal(id: string, rows: ReturnType<typeof series>[]) {
  return evaluateGoals(rows).find((g) => g.id === id)!;
}

describe('evaluateGoals', () => {
  it('passes within 1.1× curl at every size and fails beyond, saying by how much', () => {
    const curl = series('large', 'curl', GIB, [1000, 1000, 1000], 12);
    expect(
      goal('time', [series('large', 'trayshare', GIB, [1050, 1100, 900], 60), curl]).pass,
    ).toBe(true);
    const slow = goal('time', [series('large', 'trayshare', GIB, [1320, 1320, 1320], 60), curl]);
    expect(slow.pass).toBe(false);
    expect(slow.measured).toContain('1.32×');
    expect(slow.measured).toContain('20% over the limit');
    const oneSizeSlow = goal('time', [
      series('large', 'trayshare', GIB, [1000], 60),
      curl,
      series('large', 'trayshare', 4 * GIB, [5000], 60),
      series('large', 'curl', 4 * GIB, [4000], 12),
    ]);
    expect(oneSizeSlow.pass).toBe(false);
  });

  it("compares CPU seconds per GiB with curl's, at most 1.5×", () => {
    const withCpu = (tool: ToolId, cpuMs: number) =>
      summarise({
        scenario: 'large',
        caseLabel: '2 GiB',
        tool,
        target: 'sink',
        fileBytes: 2 * GIB,
        files: 1,
        processes: 1,
        samples: [{ wallMs: 1000, peakRssKiB: 1000, cpuMs }],
      });
    const ok = goal('cpu', [withCpu('trayshare', 700), withCpu('curl', 500)]);
    expect(ok.pass).toBe(true);
    expect(ok.measured).toContain('0.35 s/GiB vs 0.25 s/GiB');
    expect(goal('cpu', [withCpu('trayshare', 800), withCpu('curl', 500)]).pass).toBe(false);
  });

  it('uses the median, so one slow run does not decide', () => {
    const curl = series('large', 'curl', GIB, [1000, 1000, 1000], 12);
    const ours = series('large', 'trayshare', GIB, [1000, 9000, 1000], 60);
    expect(goal('time', [ours, curl]).pass).toBe(true);
  });

  it('fails peak RSS on the largest single run above 64 MB', () => {
    const rows = [
      series('large', 'trayshare', 256 * MIB, [1], 60),
      series('large', 'trayshare', GIB, [1], 65, { target: 'service' }),
    ];
    const g = goal('rss', rows);
    expect(g.pass).toBe(false);
    expect(g.measured).toContain('65 MB');
  });

  it('calls memory flat only when it grows at most 4 MB from the smallest to the largest file', () => {
    const flat = [
      series('large', 'trayshare', 256 * MIB, [1], 56),
      series('large', 'trayshare', 4 * GIB, [1], 59.5),
    ];
    expect(goal('rss-flat', flat).pass).toBe(true);
    const growing = [
      series('large', 'trayshare', 256 * MIB, [1], 56),
      series('large', 'trayshare', 4 * GIB, [1], 61),
    ];
    expect(goal('rss-flat', growing).pass).toBe(false);
  });

  it('compares small files by per-file rate against the curl loop', () => {
    const rows = [
      series('small', 'trayshare', 10240, [2000], 70, { files: 500 }),
      series('small', 'curl-loop', 10240, [2500], 12, { files: 500 }),
    ];
    const g = goal('small-rate', rows);
    expect(g.pass).toBe(true);
    expect(g.measured).toContain('250 vs 200 files/s');
  });

  it('says "not measured" instead of passing when a comparison did not run', () => {
    const goals = evaluateGoals([]);
    expect(goals.every((g) => g.pass === undefined)).toBe(true);
    expect(goals.find((g) => g.id === 'progress')!.measured).toBe('not measured');
  });

  it('ignores failed runs: a tool that never delivered is not measured', () => {
    const failed = summarise({
      scenario: 'large',
      caseLabel: '1 GiB',
      tool: 'trayshare',
      target: 'sink',
      fileBytes: GIB,
      files: 1,
      processes: 1,
      samples: [{ wallMs: 10, peakRssKiB: 1000, error: '0 of 1 delivered' }],
    });
    const curl = series('large', 'curl', GIB, [1000], 12);
    expect(goal('time', [failed, curl]).pass).toBeUndefined();
  });

  it('judges progress by its cost and its rate', () => {
    const base = { fileBytes: GIB, runs: 5, withoutMs: 1000, eventsPerSecond: 10 };
    expect(progressGoal({ ...base, withMs: 1015 }).pass).toBe(true);
    expect(progressGoal({ ...base, withMs: 1030 }).pass).toBe(false);
    expect(progressGoal({ ...base, withMs: 1000, eventsPerSecond: 3 }).pass).toBe(false);
  });

  it('shows the noise floor beside the cost of progress, and judges by the cost alone', () => {
    const base = { fileBytes: GIB, runs: 5, withoutMs: 1000, withMs: 1030, eventsPerSecond: 10 };
    const goal = progressGoal({ ...base, pairedRatio: 1.03, controlRatio: 1.035 });
    expect(goal.measured).toContain('(+3.0%, median of the paired rounds)');
    expect(goal.measured).toContain('noise floor, without against a control without: +3.5%');
    expect(goal.pass).toBe(false);
  });

  it('judges the resting core by start time and heap, after settling and after uploads', () => {
    const base = {
      historyEntries: 5000,
      queueItems: 200,
      startMs: 120,
      settledRssMB: 70,
      settledHeapMB: 12,
      uploads: 100,
      afterUploadsRssMB: 75,
      afterUploadsHeapMB: 15,
    };
    expect(coreGoal(base).pass).toBe(true);
    expect(coreGoal({ ...base, startMs: 151 }).pass).toBe(false);
    expect(coreGoal({ ...base, afterUploadsHeapMB: 21 }).pass).toBe(false);
  });

  it('marks a figure from a busy machine as noisy', () => {
    const busy = (tool: ToolId, wall: number) =>
      summarise({
        scenario: 'large',
        caseLabel: '1 GiB',
        tool,
        target: 'sink',
        fileBytes: GIB,
        files: 1,
        processes: 1,
        loadBefore: 1.5,
        cpus: 2,
        samples: [{ wallMs: wall, peakRssKiB: 1000 }],
      });
    expect(goal('time', [busy('trayshare', 1000), busy('curl', 1000)]).measured).toContain('noisy');
  });
});
