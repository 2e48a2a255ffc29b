import { describe, expect, it } from 'vitest';
import { type LinkShare, linkShareGoals, linkShareTable } from './link-share';

function share(ours: number, sdk: number, floor: number): LinkShare {
  const c = (roundTripMs: number) => ({
    roundTripMs,
    linkMBps: 100,
    transferMs: 50,
    floorMessageMs: floor,
    floorLinksMs: floor + 100,
    toMessageMs: { trayshare: ours, 'slack-sdk-v2': sdk },
    toLinksMs: { trayshare: ours + 60, 'slack-sdk-v2': sdk + 60 },
    wholeMessageMs: { trayshare: ours + 50, 'slack-sdk-v2': sdk + 50 },
    handshakes: { trayshare: 10, 'slack-sdk-v2': 10 },
    loadBefore: 0.2,
  });
  return { files: 10, fileBytes: 2e6, runs: 5, cases: [c(50), c(150)], cpus: 2 };
}

describe('the TLS share targets', () => {
  it('pass only when both hold: at most 0.6× filesUploadV2 and within 1.5× the floor', () => {
    expect(linkShareGoals(share(240, 400, 200)).map((g) => g.pass)).toEqual([true, true]);
    // Fast against the SDK, far from the floor.
    expect(linkShareGoals(share(240, 400, 150)).map((g) => g.pass)).toEqual([false, false]);
    // Near the floor, not fast enough against the SDK.
    expect(linkShareGoals(share(250, 400, 200)).map((g) => g.pass)).toEqual([false, false]);
  });

  it("say when 0.6× filesUploadV2 is below the floor, out of any client's reach", () => {
    const [at50] = linkShareGoals(share(240, 300, 200));
    expect(at50?.pass).toBe(false);
    expect(at50?.measured).toMatch(/0\.6× filesUploadV2 is 180 ms, below the floor/);
    expect(linkShareGoals(share(240, 400, 200))[0]?.measured).not.toMatch(/below the floor/);
  });

  it("name what the floor's steps alone took, beside the floor", () => {
    const x = share(240, 400, 200);
    x.cases[0]!.toMessageMs.minimal = 300;
    expect(linkShareGoals(x)[0]?.measured).toMatch(
      /the floor's steps alone 300 ms \(1\.50× the floor/,
    );
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
