// What the settings file's token scrubber removes and what it leaves (found by mutation testing,
// docs/mutation.md). A token pasted into config.json by hand is never used and never kept; the
// fields that only talk about tokens (when one expires, whether one is set) stay.
import { describe, expect, it } from 'vitest';
import { scrubTokens, scrubTokensInText } from './tokens-in-file';

const MARK = '[removed by Trayshare: tokens belong in the OS keychain]';

describe('scrubbing parsed settings', () => {
  it('removes every credential-named key that holds something, wherever it is, and says where', () => {
    const data = {
      token: 'abc',
      workspaces: [{ id: 'W1', refreshToken: 'r', clientSecret: 's', Password: 'p' }],
      proxy: { authorization: 'x', passwd: 'y', credentials: { user: 'u' }, bearer: 'b' },
    };
    expect(scrubTokens(data, 'remove')).toEqual({
      data: { workspaces: [{ id: 'W1' }], proxy: {} },
      found: [
        'token',
        'workspaces[0].refreshToken',
        'workspaces[0].clientSecret',
        'workspaces[0].Password',
        'proxy.authorization',
        'proxy.passwd',
        'proxy.credentials',
        'proxy.bearer',
      ],
    });
  });

  it("marks instead of removing in 'mark' mode (the copy kept for the person)", () => {
    expect(scrubTokens({ a: { apiToken: 'abc' }, note: 'xoxb-1234-abcd' }, 'mark')).toEqual({
      data: { a: { apiToken: MARK }, note: MARK },
      found: ['a.apiToken', 'note'],
    });
  });

  it('empties a token-shaped value under any key, in lists too, and at the top level', () => {
    expect(
      scrubTokens({ comment: 'xoxp-1-2-3-abcdef', list: ['ok', 'Bearer abc.def'] }, 'remove'),
    ).toEqual({ data: { comment: '', list: ['ok', ''] }, found: ['comment', 'list[1]'] });
    expect(scrubTokens('xoxe-aaaa-bbbb', 'remove')).toEqual({ data: '', found: ['(top level)'] });
  });

  it('keeps what only talks about a token: an expiry time, an empty or null value, a yes/no', () => {
    const data = {
      tokenExpiresAt: 1_700_000_000_000,
      token: '',
      secret: null,
      hasToken: true,
      workspaces: [{ name: 'xox', comment: 'Bearer', size: 3 }],
    };
    expect(scrubTokens(data, 'remove')).toEqual({ data, found: [] });
  });

  it('an expiry that is not a number is not trusted as one', () => {
    expect(scrubTokens({ tokenExpiresAt: 'xoxb-1234-abcd' }, 'remove').found).toEqual([
      'tokenExpiresAt',
    ]);
  });

  it('needs four characters after the xox prefix to call a value a token', () => {
    expect(scrubTokens({ a: 'xoxb-abc' }, 'remove').found).toEqual([]);
    expect(scrubTokens({ a: 'see xoxb-abcd here' }, 'remove').found).toEqual(['a']);
    expect(scrubTokens({ a: 'noxoxb-abcd' }, 'remove').found).toEqual([]);
    expect(scrubTokens({ a: '  bearer x' }, 'remove').found).toEqual(['a']);
    expect(scrubTokens({ a: 'not a Bearer x' }, 'remove').found).toEqual([]);
  });
});

describe('scrubbing a file that is not JSON', () => {
  it('blanks credential-named values, token-shaped text and bearer headers, and says so', () => {
    const text =
      '{"workspaces": [{"token": "abc\\"def", "name": "Acme"}], "note": "xoxb-1234-abcd", "h": "Bearer abc.def" ';
    expect(scrubTokensInText(text)).toEqual({
      text: `{"workspaces": [{"token": "${MARK}", "name": "Acme"}], "note": "${MARK}", "h": "Bearer ${MARK}" `,
      found: true,
    });
  });

  it('leaves a file without credentials as it was', () => {
    const text = '{"workspaces": [{"name": "xox", "tokenExpiresAt": 5}';
    expect(scrubTokensInText(text)).toEqual({ text, found: false });
  });

  it('matches keys and tokens whatever their case', () => {
    const { text, found } = scrubTokensInText('{"API_TOKEN" : "a", "x": "XOXB-ABCD-1234"');
    expect(found).toBe(true);
    expect(text).toBe(`{"API_TOKEN" : "${MARK}", "x": "${MARK}"`);
  });
});
