import { describe, expect, it } from 'vitest';
import type { ToolId } from './clients';
import { evaluateGoals } from './goals';
import { type Series, summarise } from './results';
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
  it('passes 1 GiB within 1.1× curl and fails beyond, saying by how much', () => {
    const curl = series('large', 'curl', GIB, [1000, 1000, 1000], 12);
    expect(
      goal('time-1g', [series('large', 'trayshare', GIB, [1050, 1100, 900], 60), curl]).pass,
    ).toBe(true);
    const slow = goal('time-1g', [series('large', 'trayshare', GIB, [1320, 1320, 1320], 60), curl]);
    expect(slow.pass).toBe(false);
    expect(slow.measured).toContain('1.32×');
    expect(slow.measured).toContain('20% over the limit');
  });

  it('uses the median, so one slow run does not decide', () => {
    const curl = series('large', 'curl', GIB, [1000, 1000, 1000], 12);
    const ours = series('large', 'trayshare', GIB, [1000, 9000, 1000], 60);
    expect(goal('time-1g', [ours, curl]).pass).toBe(true);
  });

  it('fails peak RSS on the largest single run above 150 MB', () => {
    const rows = [
      series('large', 'trayshare', 256 * MIB, [1], 90),
      series('large', 'trayshare', GIB, [1], 151, { target: 'service' }),
    ];
    const g = goal('rss-150', rows);
    expect(g.pass).toBe(false);
    expect(g.measured).toContain('151 MB');
  });

  it('calls memory flat only when it grows at most 10% from the smallest to the largest file', () => {
    const flat = [
      series('large', 'trayshare', 256 * MIB, [1], 100),
      series('large', 'trayshare', 2 * GIB, [1], 108),
    ];
    expect(goal('rss-flat', flat).pass).toBe(true);
    const growing = [
      series('large', 'trayshare', 256 * MIB, [1], 100),
      series('large', 'trayshare', 2 * GIB, [1], 130),
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
    expect(goals.find((g) => g.id === 'external-rss')!.measured).toMatch(/^TODO/);
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
    expect(goal('time-1g', [failed, curl]).pass).toBeUndefined();
  });
});
