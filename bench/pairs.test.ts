import { describe, expect, it } from 'vitest';
import type { ToolId } from './clients';
import { buildPairs } from './pairs';
import { summarise } from './results';
import type { Series } from './samples';
import type { TargetName } from './targets';

function row(
  scenario: Series['scenario'],
  tool: ToolId,
  target: TargetName,
  wallMs: number,
  rssKiB: number,
) {
  return summarise({
    scenario,
    caseLabel: '1 GiB',
    tool,
    target,
    fileBytes: 2 ** 30,
    files: 1,
    processes: 1,
    samples: [{ wallMs, peakRssKiB: rssKiB }],
  });
}

describe('buildPairs', () => {
  it('puts trayshare against each client on the same target, as ratios of medians', () => {
    const pairs = buildPairs([
      row('large', 'trayshare', 'sink', 1200, 100_000),
      row('large', 'curl', 'sink', 1000, 10_000),
    ]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]!.timeRatio).toBeCloseTo(1.2);
    expect(pairs[0]!.rssRatio).toBeCloseTo(10);
  });

  it("sets the SDK's filesUploadV2 against trayshare's files.upload for the same file", () => {
    const pairs = buildPairs([
      row('large', 'trayshare', 'sink', 1000, 100_000),
      row('external', 'slack-sdk-v2', 'sink', 2000, 2_000_000),
    ]);
    const p = pairs.find((x) => x.a.tool === 'slack-sdk-v2');
    expect(p?.b).toMatchObject({ scenario: 'large', tool: 'trayshare', target: 'sink' });
    expect(p?.rssRatio).toBeCloseTo(20);
  });

  it('leaves out a pair whose other side was not measured', () => {
    expect(buildPairs([row('large', 'trayshare', 'sink', 1000, 1)])).toEqual([]);
  });
});
