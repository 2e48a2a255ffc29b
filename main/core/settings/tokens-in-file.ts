// A settings file never holds a token, but a person may paste one into it by hand. Such a value is
// never used as a token (tokens come from the keychain only) and is removed from the file; where
// the bad file is kept for the person, the value is blanked there too.

/** Keys that name a credential. */
const TOKEN_KEY = /token|secret|password|passwd|authori[sz]ation|bearer|credential/i;
/** Keys that say something about a token without holding one (when the access token expires). */
const ABOUT_TOKENS = new Set(['tokenExpiresAt']);
/** Values that are a credential whatever their key: Slack-style tokens, bearer headers. */
const TOKEN_VALUE = /\bxox[a-z]-[A-Za-z0-9-]{4,}|^\s*Bearer\s+\S/i;

const REMOVED_MARK = '[removed by Trayshare: tokens belong in the OS keychain]';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/**
 * Returns a copy of `data` without token-shaped fields, and where they were. `mode` 'remove'
 * deletes keys and empties token-shaped values; 'mark' replaces both with REMOVED_MARK.
 */
export function scrubTokens(
  data: unknown,
  mode: 'remove' | 'mark',
): { data: unknown; found: string[] } {
  const found: string[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      if (!TOKEN_VALUE.test(value)) return value;
      found.push(path || '(top level)');
      return mode === 'mark' ? REMOVED_MARK : '';
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, pathOf(path, i)));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const here = pathOf(path, key);
      const about = ABOUT_TOKENS.has(key) && typeof item === 'number';
      if (
        TOKEN_KEY.test(key) &&
        !about &&
        item !== null &&
        item !== '' &&
        typeof item !== 'boolean'
      ) {
        found.push(here);
        if (mode === 'mark') out[key] = REMOVED_MARK;
        continue;
      }
      out[key] = walk(item, here);
    }
    return out;
  };
  return { data: walk(data, ''), found };
}

/** Blanks token-shaped text in a file that is not valid JSON (so it cannot be walked). */
export function scrubTokensInText(text: string): { text: string; found: boolean } {
  let found = false;
  const mark = () => {
    found = true;
    return REMOVED_MARK;
  };
  const keyed = new RegExp(
    `("[^"]*(?:${TOKEN_KEY.source})[^"]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`,
    'gi',
  );
  const out = text
    .replace(keyed, (_all, head: string) => `${head}"${mark()}"`)
    .replace(/xox[a-z]-[A-Za-z0-9-]{4,}/gi, mark)
    .replace(/(Bearer\s+)(?!\[removed)[^\s"]+/gi, (_all, head: string) => `${head}${mark()}`);
  return { text: out, found };
}
