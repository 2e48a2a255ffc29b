// Which series are compared with which: trayshare against each other client on the same
// target, and each client against itself on service vs sink (is the service the bottleneck?).
import type { ToolId } from './clients';
import { type Pair, pairOf, type SeriesSummary } from './results';
import type { SeriesKey } from './samples';
import type { TargetName } from './targets';

type Side = [tool: ToolId, target: TargetName];

/** "tool@target" pairs, A then B. */
const WITHIN_CASE: Record<string, [string, string][]> = {
  large: [
    ['trayshare@sink', 'curl@sink'],
    ['trayshare@sink', 'slack-sdk@sink'],
    ['trayshare@sink', 'node-pipe@sink'],
    ['node-pipe@sink', 'curl@sink'],
    ['trayshare@service', 'curl@service'],
    ['trayshare@link', 'curl@link'],
    ['trayshare@service', 'trayshare@sink'],
    ['curl@service', 'curl@sink'],
  ],
  small: [
    ['trayshare@sink', 'curl-loop@sink'],
    ['trayshare@sink', 'curl-next@sink'],
    ['trayshare@sink', 'slack-sdk@sink'],
    ['trayshare@service', 'curl-loop@service'],
    ['trayshare@service', 'trayshare@sink'],
    ['curl-loop@service', 'curl-loop@sink'],
  ],
  concurrent: [
    ['trayshare@sink', 'curl@sink'],
    ['trayshare@service', 'curl@service'],
    ['trayshare@service', 'trayshare@sink'],
    ['curl@service', 'curl@sink'],
  ],
  external: [
    ['trayshare-external@sink', 'slack-sdk-v2@sink'],
    ['trayshare-external@service', 'slack-sdk-v2@service'],
    ['slack-sdk-v2@service', 'slack-sdk-v2@sink'],
  ],
};

function side(text: string): Side {
  const [tool, target] = text.split('@') as [ToolId, TargetName];
  return [tool, target];
}

export function buildPairs(summaries: SeriesSummary[]): Pair[] {
  const pairs: Pair[] = [];
  const cases = [
    ...new Map(summaries.map((s) => [`${s.scenario}\u0000${s.caseLabel}`, s])).values(),
  ];
  for (const c of cases) {
    const key = (side: Side): SeriesKey => ({
      scenario: c.scenario,
      caseLabel: c.caseLabel,
      tool: side[0],
      target: side[1],
    });
    for (const [a, b] of WITHIN_CASE[c.scenario] ?? []) {
      const p = pairOf(summaries, key(side(a)), key(side(b)));
      if (p) pairs.push(p);
    }
    // The external protocol's client against trayshare's files.upload for the same file: the
    // memory difference shows even before the CLI has an external mode.
    if (c.scenario === 'external') {
      const p = pairOf(summaries, key(['slack-sdk-v2', 'sink']), {
        scenario: 'large',
        caseLabel: c.caseLabel,
        tool: 'trayshare',
        target: 'sink',
      });
      if (p) pairs.push(p);
    }
  }
  return pairs;
}
