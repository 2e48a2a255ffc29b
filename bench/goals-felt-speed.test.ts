import { describe, expect, it } from 'vitest';
import { appPathGoal, feltSpeedGoals, fixedOverheadGoal, startUpGoals } from './goals-felt-speed';
import { summarise } from './results';
import type { Series } from './samples';

const MiB256 = 256 * 2 ** 20;

function series(tool: 'trayshare' | 'curl', wallMs: number[]): ReturnType<typeof summarise> {
  const s: Series = {
    scenario: 'large',
    caseLabel: '256 MiB',
    tool,
    target: 'sink',
    fileBytes: MiB256,
    files: 1,
    processes: 1,
    samples: wallMs.map((w) => ({ wallMs: w, peakRssKiB: 50_000 })),
  };
  return summarise(s);
}

describe('the start-up and per-share overhead targets', () => {
  it('fixed overhead: judged on the rounds paired, so a busy round counts against both', () => {
    // Round 3 was slow for both; per round, trayshare is 1.1× curl.
    const g = fixedOverheadGoal([
      series('trayshare', [440, 440, 880]),
      series('curl', [400, 400, 800]),
    ]);
    expect(g.pass).toBe(true);
    expect(g.measured).toMatch(/^3 rounds: median ratio 1\.10×/);
    const slow = fixedOverheadGoal([series('trayshare', [560, 560]), series('curl', [400, 400])]);
    expect(slow.pass).toBe(false);
  });

  it('fixed overhead without a 256 MiB case is "not measured", not a pass', () => {
    expect(fixedOverheadGoal([]).pass).toBeUndefined();
    expect(fixedOverheadGoal([]).measured).toMatch(/not measured/);
  });

  it('start-up: --version by ratio, the small send by milliseconds over node -e 0', () => {
    const [version, send] = startUpGoals({
      pairs: 10,
      versionMs: 40,
      versionNodeMs: 32,
      versionRatio: 1.24,
      sendBytes: 200_000,
      sendMs: 80,
      sendNodeMs: 32,
      sendOverNodeMs: 48,
    });
    expect(version!.pass).toBe(true);
    expect(send!.pass).toBe(false);
    expect(send!.measured).toMatch(/\+48\.0 ms over node -e 0/);
  });

  it("the app's path passes under 30 ms, and a failed run is no verdict", () => {
    expect(appPathGoal({ runs: 10, fileBytes: 200_000, firstByteMs: 29.9 }).pass).toBe(true);
    expect(appPathGoal({ runs: 10, fileBytes: 200_000, firstByteMs: 30 }).pass).toBe(false);
    expect(
      appPathGoal({ runs: 10, fileBytes: 200_000, firstByteMs: Number.NaN, error: 'boom' }).pass,
    ).toBeUndefined();
  });

  it('lists the many-files and multi-file targets as not measured until their goals exist', () => {
    const rows = feltSpeedGoals([], {}, []);
    const ids = rows.map((g) => g.id);
    expect(ids).toEqual([
      'startup-version',
      'startup-small-send',
      'fixed-overhead',
      'app-path',
      'small-next-rate',
      'multi-file-time',
      'multi-file-parallel',
    ]);
    expect(rows.every((g) => g.pass === undefined)).toBe(true);
    const withTheirs = feltSpeedGoals([], {}, [
      { id: 'small-next-rate', target: 'x', measured: 'y', pass: true },
    ]);
    expect(withTheirs.map((g) => g.id)).not.toContain('small-next-rate');
  });
});
