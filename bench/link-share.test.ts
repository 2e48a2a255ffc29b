import { describe, expect, it } from 'vitest';
import { type LinkShare, linkShareGoals, linkShareTable } from './link-share';

function share(ours: number, sdk: number, floor: number, minimal = ours): LinkShare {
  const c = (roundTripMs: number) => ({
    roundTripMs,
    linkMBps: 100,
    transferMs: 50,
    floorMessageMs: floor,
    floorLinksMs: floor + 100,
    toMessageMs: { trayshare: ours, 'slack-sdk-v2': sdk, minimal },
    toLinksMs: { trayshare: ours + 60, 'slack-sdk-v2': sdk + 60, minimal: minimal + 60 },
    wholeMessageMs: { trayshare: ours + 50, 'slack-sdk-v2': sdk + 50 },
    handshakes: { trayshare: 10, 'slack-sdk-v2': 10 },
    loadBefore: 0.2,
  });
  return { files: 10, fileBytes: 2e6, runs: 5, cases: [c(50), c(150)], cpus: 2 };
}

describe('the TLS share targets', () => {
  it("pass only when all hold: within 1.05× the minimal client, at most 0.6× filesUploadV2, links at most a round trip after the minimal client's", () => {
    expect(linkShareGoals(share(240, 400, 200, 235)).map((g) => g.pass)).toEqual([true, true]);
    // Fast against the SDK, 10 % slower than the minimal client.
    expect(linkShareGoals(share(264, 440, 200, 240)).map((g) => g.pass)).toEqual([false, false]);
    // As fast as the minimal client, not fast enough against the SDK.
    expect(linkShareGoals(share(250, 400, 200)).map((g) => g.pass)).toEqual([false, false]);
    // Message in time, links 1.2 round trips (60 ms) after the minimal client's at 50 ms: only
    // the 150 ms case holds.
    const late = share(240, 400, 200, 235);
    for (const k of late.cases) k.toLinksMs.trayshare = k.toLinksMs.minimal! + 60;
    expect(linkShareGoals(late).map((g) => g.pass)).toEqual([false, true]);
  });

  it('name the minimal client, filesUploadV2 and the floor with their ratios', () => {
    const [at50] = linkShareGoals(share(240, 400, 200, 300));
    expect(at50?.measured).toMatch(/message 240 ms vs the minimal client's 300 ms \(0\.80×\)/);
    expect(at50?.measured).toMatch(/filesUploadV2's 400 ms \(0\.60×\)/);
    expect(at50?.measured).toMatch(/round-trip floor 200 ms \(the minimal client 1\.50× it/);
  });

  it('say "not measured" when the minimal client did not finish', () => {
    const x = share(240, 400, 200);
    delete x.cases[0]!.toMessageMs.minimal;
    expect(linkShareGoals(x).map((g) => g.pass)).toEqual([undefined, true]);
  });

  it('say "not measured" when the case did not run, and name the round trip', () => {
    const goals = linkShareGoals(undefined);
    expect(goals.map((g) => [g.id, g.pass])).toEqual([
      ['link-share-50', undefined],
      ['link-share-150', undefined],
    ]);
  });

  it('tabulate message, links and the floor per round trip and client', () => {
    const [table] = linkShareTable(share(240, 400, 200));
    expect(table?.rows).toHaveLength(6);
    expect(table?.rows[0]?.slice(0, 7)).toEqual([
      '50 ms',
      expect.stringMatching(/^trayshare/),
      '240 ms',
      '290 ms',
      '300 ms',
      '200 ms / 300 ms',
      '1.20×',
    ]);
  });
});
