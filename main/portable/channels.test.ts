import { describe, expect, it } from 'vitest';
import { MAX_CHANNELS, normaliseChannels } from './channels';

describe('normaliseChannels', () => {
  it('trims, drops empties and repeats, keeping the first order', () => {
    expect(normaliseChannels(' C0GENERAL, C0DESIGN,,C0GENERAL ,\nC0RANDOM\r\n')).toEqual({
      ok: true,
      channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM'],
    });
    expect(normaliseChannels(['C2', ' C1 ', '', 'C2'])).toEqual({
      ok: true,
      channels: ['C2', 'C1'],
    });
  });

  it('accepts exactly the maximum', () => {
    const ids = Array.from({ length: MAX_CHANNELS }, (_, i) => `C${i}`);
    const result = normaliseChannels(ids);
    expect(result.ok && result.channels.length).toBe(MAX_CHANNELS);
  });

  it('refuses an empty list', () => {
    expect(normaliseChannels(' , ,\n')).toEqual({
      ok: false,
      error: 'No channel given: enter at least one channel ID, such as C0123ABCD.',
    });
    expect(normaliseChannels([])).toMatchObject({ ok: false, error: /No channel given/ });
  });

  it('refuses more than the maximum, saying how many', () => {
    const ids = Array.from({ length: MAX_CHANNELS + 1 }, (_, i) => `C${i}`);
    expect(normaliseChannels(ids)).toEqual({
      ok: false,
      error: '101 channels given; one upload can be shared to at most 100.',
    });
  });

  it('refuses an ID with a space inside', () => {
    expect(normaliseChannels('C0 GENERAL')).toEqual({
      ok: false,
      error:
        'Channel ID "C0 GENERAL" contains a space; IDs look like C0123ABCD, separated by commas.',
    });
    expect(normaliseChannels(['C0\tTAB'])).toMatchObject({ ok: false, error: /contains a space/ });
  });

  it('refuses an ID with a comma (only possible in a list)', () => {
    expect(normaliseChannels(['C1,C2'])).toEqual({
      ok: false,
      error: 'Channel ID "C1,C2" contains a comma; IDs look like C0123ABCD, separated by commas.',
    });
  });

  it('refuses an ID with a control character, shown escaped', () => {
    expect(normaliseChannels(['C0\u0007BELL'])).toEqual({
      ok: false,
      error:
        'Channel ID "C0\\u0007BELL" contains a control character (U+0007); IDs look like C0123ABCD, separated by commas.',
    });
  });
});
