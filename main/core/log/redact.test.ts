// The log's second line of defence, for the spellings file-log.test.ts leaves out (found by
// mutation testing, docs/mutation.md): each line below is one a log could be handed, and what
// is written instead. A person reading the log sees what happened and never the secret.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact';

describe('a credential after its scheme, wherever it appears', () => {
  it.each([
    ['sent Bearer xyz.abc to the proxy', 'sent Bearer [redacted] to the proxy'],
    ['Bearer   xyz.abc (three spaces)', 'Bearer [redacted] (three spaces)'],
    ['basic dXNlcjpwdw== refused', 'basic [redacted] refused'],
  ])('%s', (line, written) => {
    expect(redactSecrets(line)).toBe(written);
  });
});

describe('an Authorization header of any scheme, or none', () => {
  it.each([
    ['Authorization : Token abc123', 'Authorization : [redacted]'],
    ['Authorization: Token  abc123', 'Authorization: [redacted]'],
    ['proxy-authorization=c2VjcmV0', 'proxy-authorization=[redacted]'],
  ])('%s', (line, written) => {
    expect(redactSecrets(line)).toBe(written);
  });
});

describe('secret fields in JSON, every one of them, values with spaces too', () => {
  it.each([
    [
      '{"token":"a b","client_secret":"c d"}',
      '{"token":"[redacted]","client_secret":"[redacted]"}',
    ],
    [
      '{"state":"s","code":"c1","again":{"CODE":"c2"}}',
      '{"state":"s","code":"[redacted]","again":{"CODE":"[redacted]"}}',
    ],
  ])('%s', (line, written) => {
    expect(redactSecrets(line)).toBe(written);
  });
});

describe('secret fields written as name: value', () => {
  it.each([
    ['refresh_token: r-1', 'refresh_token: [redacted]'],
    ["{ client_secret: 'abc' }", "{ client_secret: '[redacted]' }"],
    ['{\\"access_token\\":\\"a1\\"}', '{\\"access_token\\":\\"[redacted]\\"}'],
    ['Token: t1, ID_TOKEN: t2', 'Token: [redacted], ID_TOKEN: [redacted]'],
    ['access_token%3Aabc%2Cnext', 'access_token%3A[redacted]%2Cnext'],
  ])('%s', (line, written) => {
    expect(redactSecrets(line)).toBe(written);
  });
});

describe('words that only end like a secret field are not cut', () => {
  it.each(['barcode=4006381333931 read', 'mytoken: a name the person chose'])('%s', (line) => {
    expect(redactSecrets(line)).toBe(line);
  });
});

describe("an incoming webhook's address: the host and kind stay, the secret path goes", () => {
  it.each([
    [
      '"hooks.slack.com/services/T0A/B0B/s3cr3t" is not a URL',
      '"hooks.slack.com/services/[redacted]" is not a URL',
    ],
    [
      'posted to https://HOOKS.example.test:8443/triggers/T1/2/x?y=1 today',
      'posted to https://HOOKS.example.test:8443/triggers/[redacted] today',
    ],
    [
      'https://hooks.slack.com/workflows/T1/A2/3/xyz',
      'https://hooks.slack.com/workflows/[redacted]',
    ],
    // Not a webhook's path, and not a host named hooks: left as they are.
    ['https://hooks.slack.com/other/T1/B2', 'https://hooks.slack.com/other/T1/B2'],
    ['webhooks.md/services/a', 'webhooks.md/services/a'],
  ])('%s', (line, written) => {
    expect(redactSecrets(line)).toBe(written);
  });
});

// Every kind of token the module knows (its head comment), spelt with escapes: percent-encoded
// in part or whole (a URL, a form body quoted back), or as JSON and JavaScript string escapes (a
// body or an error printed with JSON.stringify or util.inspect).
const PREFIXES = [
  'xoxb-',
  'xoxp-',
  'xoxe-',
  'xoxe.xoxp-',
  'xapp-',
  'xoxa-',
  'xoxr-',
  'xoxs-',
  'xoxd-',
];
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
const SPELLINGS: [string, (token: string, prefix: string) => string][] = [
  // Only the prefix's last character (its dash, or xoxe.'s dot) encoded.
  [
    'its dash encoded',
    (t, p) => `${p.slice(0, -1)}%${hex(p.at(-1)!).toUpperCase()}${t.slice(p.length)}`,
  ],
  [
    'its dash encoded, lower case',
    (t, p) => `${p.slice(0, -1)}%${hex(p.at(-1)!)}${t.slice(p.length)}`,
  ],
  ['its dash encoded twice', (t, p) => `${p.slice(0, -1)}%25${hex(p.at(-1)!)}${t.slice(p.length)}`],
  ['every character encoded', (t) => [...t].map((c) => `%${hex(c).toUpperCase()}`).join('')],
  ['its x as \\u0078', (t) => `\\u${hex(t[0]!).padStart(4, '0')}${t.slice(1)}`],
  [
    'every character as \\uXXXX',
    (t) => [...t].map((c) => `\\u${hex(c).padStart(4, '0')}`).join(''),
  ],
  ['its x as \\u{78}', (t) => `\\u{${hex(t[0]!)}}${t.slice(1)}`],
  ['its x as \\x78', (t) => `\\x${hex(t[0]!)}${t.slice(1)}`],
];

describe('a token spelt with escapes, of every kind', () => {
  const cases = PREFIXES.flatMap((prefix) =>
    SPELLINGS.map(([how, spell]) => [prefix, how, spell(`${prefix}1234-5678-AbCd9Ef`, prefix)]),
  );
  it.each(cases)('%s, %s: %s', (_, __, spelt) => {
    expect(redactSecrets(`the service echoed ${spelt} back`)).toBe(
      'the service echoed [token] back',
    );
    expect(redactSecrets(`{"echo":"${spelt}","ok":false}`)).toBe('{"echo":"[token]","ok":false}');
    // In a query: only the token goes, its neighbours stay.
    expect(redactSecrets(`/api?a=1%26t%3D${spelt}%26next=2`)).toBe(
      '/api?a=1%26t%3D[token]%26next=2',
    );
  });
});

describe('text with escapes and no token is left as it is', () => {
  it.each([
    'GET /files/a%20b%2Dc.png 404',
    'caf\\u00e9 \\u0041BC \\x41 50% off, 100%2D200',
    'x%2Dray, box%2Doffice, \\u0078-ray',
    'xox%2D1 xoxo%20x xap%2Dp',
    '%F0%9F%98%80 \\u{1F600} \\u{110000}',
  ])('%s', (line) => {
    expect(redactSecrets(line)).toBe(line);
  });
});
