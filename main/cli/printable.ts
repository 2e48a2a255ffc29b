// File names and service messages come from outside: a name holding ESC[2J would clear the
// person's screen, and a newline would fake a result line. Human output shows control
// characters escaped; --json output is escaped by JSON itself.
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 controls, DEL, C1 controls, and the line/paragraph separators some terminals obey.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `text` with control characters shown as escapes (\n, \t, \x1b, \u2028). */
export function printable(text: string): string {
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code > 0xff
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
