// "Copy the link when an upload is delivered": off by default; on, the link of each delivered
// upload (all the links of a share of several files, one a line) is written to the clipboard.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PreferencesResult } from '../../preload/contract';
import { type ShellHarness, startShellHarness } from './shell-harness';

describe('copy the link on delivery', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('copies nothing while off; once on, copies the links of the share as it is delivered', async () => {
    h = await startShellHarness();
    const [quiet] = await h.files('not copied.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [quiet!] });
    await h.service.settled();
    await vi.waitFor(() =>
      expect(h.notifications.map((n) => n.options.title)).toContain('Shared not copied.txt'),
    );
    expect(h.clipboard.written).toEqual([]);

    h.shell.activate();
    const main = h.windows.open()[0]!;
    const result = (await h.call(main, 'setPreferences', {
      copyLinkOnDelivery: true,
    })) as PreferencesResult;
    expect(result.preferences.copyLinkOnDelivery).toBe(true);

    const [single] = await h.files('deck.pdf');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [single!] });
    await h.service.settled();
    const [deck] = await h.service.listHistory({ search: 'deck.pdf' });
    expect(deck?.permalink).toMatch(/^http/);
    await vi.waitFor(() => expect(h.clipboard.written.at(-1)).toBe(deck!.permalink));
    await vi.waitFor(() =>
      expect(
        h.notifications.find((n) => n.options.title === 'Shared deck.pdf')?.options.body,
      ).toMatch(/Its link is on the clipboard/),
    );

    const pair = await h.files('one.txt', 'two.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: pair });
    await h.service.settled();
    const links = await Promise.all(
      ['one.txt', 'two.txt'].map(async (name) => {
        const [entry] = await h.service.listHistory({ search: name });
        return entry!.permalink!;
      }),
    );
    await vi.waitFor(() =>
      expect(h.clipboard.written.at(-1)?.split('\n').sort()).toEqual([...links].sort()),
    );
  });
});
