import { describe, expect, it } from 'vitest';
import { parseThread } from './thread-link';

describe('parseThread', () => {
  it('reads a ts, a message link, and a link to a reply (its thread_ts)', () => {
    expect(parseThread(' 1700000000.123456 ')).toEqual({ ok: true, ts: '1700000000.123456' });
    expect(parseThread('https://acme.slack.com/archives/C0123/p1700000000123456')).toEqual({
      ok: true,
      ts: '1700000000.123456',
      channel: 'C0123',
    });
    expect(
      parseThread(
        'https://acme.slack.com/archives/C0123/p1700000099000001?thread_ts=1700000000.123456&cid=C0123',
      ),
    ).toEqual({ ok: true, ts: '1700000000.123456', channel: 'C0123' });
  });

  it('refuses what is neither, saying what is expected', () => {
    expect(parseThread('yesterday')).toMatchObject({
      ok: false,
      error: /message link nor a message ts/,
    });
    expect(parseThread('https://acme.slack.com/archives/C0123')).toMatchObject({
      ok: false,
      error: /not a message link/,
    });
  });
});
