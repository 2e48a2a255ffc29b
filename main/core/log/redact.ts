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

const SECRET_FIELDS = 'token|access_token|refresh_token|client_secret|code|code_verifier';

const RULES: readonly (readonly [RegExp, string])[] = [
  [/\bx(?:ox[a-z]|app)[.-][A-Za-z0-9._-]*/gi, '[token]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  // The value: an optional scheme ("Bearer", "Basic") and its credential.
  [
    /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)(?:[A-Za-z]+\s+)?[^\s"',;}]+/gi,
    '$1$2[redacted]',
  ],
  [new RegExp(`\\b(${SECRET_FIELDS})=[^&\\s"'#]+`, 'gi'), '$1=[redacted]'],
  [new RegExp(`"(${SECRET_FIELDS})"\\s*:\\s*"[^"]*"`, 'gi'), '"$1":"[redacted]"'],
  // user:password@ in a URL: a proxy's credentials.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, '$1[redacted]@'],
];

/** The text with every token-shaped string and credential value replaced. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
