// The second line of defence. The code never hands a secret to the log; every line still passes
// through here before it is written (file and stderr), so a token that slips into an error
// message (a service echoing a request, a URL with ?code=, a proxy URL with a password) is cut.
//
// Token shapes are Slack's: xoxb- bot and xoxp- user tokens (the examples of
// https://api.slack.com/methods/oauth.v2.exchange), xoxe- refresh tokens and xoxe.xoxp- expiring
// access tokens (https://api.slack.com/methods/tooling.tokens.rotate's answer;
// https://docs.slack.dev/authentication/using-token-rotation), xapp- app-level tokens, and any
// other xox?- kind. OAuth's own secrets are the fields of RFC 6749 §4.1 and RFC 7636 (code,
// code_verifier, refresh_token, client_secret, access_token).

// However a token is spelled on its way to a log line, it is cut:
// - URL-encoded, in a query or a form body quoted back: `token%3Dxoxp-…`, `%26` ends a value;
// - glued to what comes before (`T_xoxp-…`, `1xoxp-…`): no word boundary is asked for;
// - holding encoded characters (`xoxd-abc%2Bdef`, a browser cookie token): `%`, `+`, `/` and `=`
//   are part of it;
// - a secret field's value of any shape, without the xox prefix: `refresh_token=x`,
//   `refresh_token: x`, `{ refresh_token: 'x' }`, `{"refresh_token":"x"}`, `{\"refresh_token\":\"x\"}`.
// Cutting a little more than the secret (the rest of an encoded query) is the price.
// - spelt with escapes, any of its characters or all of them: percent-encoded (`xoxp%2D…`,
//   `%78%6F%78%70%2D…`, twice over as `%252D`) or as a JSON or JavaScript string escape
//   (`\u0078oxp-…`, `\u{78}`, `\x78`). Such a run is decoded before it is matched
//   (`escapedTokens`), and only the token's own part of it is cut, so text with escapes and no
//   token (`a%20b`, `caf\u00e9`) is left as it is.

const SECRET_FIELDS = 'token|access_token|refresh_token|client_secret|code_verifier|id_token';
/** `code` only as `code=` (an OAuth code in a URL): "code: 400" in a message is no secret. */
const SECRET_FIELDS_WITH_CODE = `${SECRET_FIELDS}|code`;
/** A field's value: up to a space, a quote, a separator, or an encoded `"`, `&` or `,`; never
 * one already cut (`[token]`). */
const VALUE = String.raw`(?:(?!%2[26C]|\\["'])[^\s"'&,;}<>#[\]])+`;
/** Not the end of a longer word ("mytoken"); `_` may come before ("user_token"). */
const START = '(?<![A-Za-z0-9])';

const RULES: readonly (readonly [RegExp, string])[] = [
  [/x(?:ox[a-z]|app)[.-](?:(?!%26)[A-Za-z0-9._%+/=-])*/gi, '[token]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  // The value: an optional scheme ("Bearer", "Basic") and its credential.
  [
    /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)(?:[A-Za-z]+\s+)?[^\s"',;}]+/gi,
    '$1$2[redacted]',
  ],
  [new RegExp(`"(${SECRET_FIELDS_WITH_CODE})"\\s*:\\s*"[^"]*"`, 'gi'), '"$1":"[redacted]"'],
  [new RegExp(`${START}(${SECRET_FIELDS_WITH_CODE})(=|%3D)${VALUE}`, 'gi'), '$1$2[redacted]'],
  [
    new RegExp(`${START}(${SECRET_FIELDS})(\\\\?["']?\\s*(?::|%3A)\\s*\\\\?["']?)${VALUE}`, 'gi'),
    '$1$2[redacted]',
  ],
  // An incoming webhook's address is itself the credential: whoever holds it can post, and Slack
  // asks that it never be shared (https://api.slack.com/messaging/webhooks, now
  // docs.slack.dev/messaging/sending-messages-using-incoming-webhooks). Shaped
  // https://hooks.slack.com/services/T…/B…/…, and the contract's hooks.<host>. Workflow triggers (hooks.slack.com/triggers/…) are the same kind. A person
  // who pastes one where a token or base URL goes gets a message that may quote it.
  [
    /\b(hooks\.[a-z0-9.-]+(?::\d+)?\/(?:services|triggers|workflows)\/)[^\s"'<>]+/gi,
    '$1[redacted]',
  ],
  // user:password@ in a URL: a proxy's credentials.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1[redacted]@'],
];

/**
 * A run of the characters a token can be spelt with, escapes included. Each of its parts starts
 * with a different character, so the run is found in one pass without backtracking.
 */
const ESCAPED_RUN =
  /(?:[A-Za-z0-9._+/=-]|%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\u\{[0-9A-Fa-f]{1,6}\}|\\x[0-9A-Fa-f]{2})+/g;
/** An escape of the kinds ESCAPED_RUN takes: a line without one has no escaped token. */
const AN_ESCAPE = /%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f{]|\\x[0-9A-Fa-f]{2}/;
/** One character of such a run: an escape (`%25XX` is a percent-encoded `%XX`) or itself. */
const UNIT =
  /%25([0-9A-Fa-f]{2})|%([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})|\\u\{([0-9A-Fa-f]{1,6})\}|\\x([0-9A-Fa-f]{2})|([A-Za-z0-9._+/=-])/gy;
/** The start of a token (the first rule's), matched on the decoded run. */
const TOKEN_START = /x(?:ox[a-z]|app)[.-]/gi;
const TOKEN_CHAR = /[A-Za-z0-9._%+/=-]/;

/** The run with each token its escapes spell replaced by `[token]`, the rest as it was. */
function escapedTokens(run: string): string {
  if (!AN_ESCAPE.test(run)) return run;
  const units: string[] = [];
  let decoded = '';
  for (const m of run.matchAll(UNIT)) {
    units.push(m[0]);
    const hex = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    const code = hex === undefined ? undefined : Number.parseInt(hex, 16);
    // One character per unit, so a position in `decoded` is one in `units`; what decodes to
    // more (or to nothing) is no token's character.
    decoded += code === undefined ? (m[6] ?? '') : code <= 0xffff ? String.fromCharCode(code) : ' ';
  }
  let out = '';
  let at = 0;
  for (const m of decoded.matchAll(TOKEN_START)) {
    if (m.index < at) continue;
    let end = m.index + m[0].length;
    while (end < decoded.length && TOKEN_CHAR.test(decoded[end] ?? '')) end++;
    out += `${units.slice(at, m.index).join('')}[token]`;
    at = end;
  }
  return at === 0 ? run : out + units.slice(at).join('');
}

/** The text with every token-shaped string and credential value replaced. */
export function redactSecrets(text: string): string {
  let out = AN_ESCAPE.test(text) ? text.replace(ESCAPED_RUN, escapedTokens) : text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
