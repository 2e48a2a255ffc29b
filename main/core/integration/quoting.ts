// Quoting for the places a path is written into another program's syntax. Each rule follows
// the consumer that reads it back: GLib/KIO for desktop entries, /bin/sh for scripts and
// Thunar commands, GMarkup for Thunar's uca.xml.

/**
 * A Desktop Entry `string` value: backslash, newline, tab and carriage return escaped
 * (Desktop Entry Specification, "Possible value types").
 */
export function desktopString(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/\r/g, '\\r');
}

// Characters that force an Exec argument into double quotes ("The Exec key").
const execReserved = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of an Exec key, before the value is string-escaped: quoted when it holds a
 * reserved character, with `"`, `` ` ``, `$` and `\` backslash-escaped inside the quotes,
 * and `%` doubled so it is not read as a field code. `force` quotes even a plain argument.
 */
export function desktopExecArg(arg: string, force = false): string {
  const percent = arg.replace(/%/g, '%%');
  if (!force && !execReserved.test(arg) && arg !== '') return percent;
  return `"${percent.replace(/["`$\\]/g, '\\$&')}"`;
}

/**
 * A complete Exec value: the program (always quoted), its arguments, then field codes such
 * as `%F` written as they are. The result is already string-escaped for the file.
 * A program whose path holds `%` is started through `env`: the spec has `%` written `%%`
 * ("The Exec key"), but GLib looks the program up before it turns `%%` back into `%` and
 * refuses the entry (`gio launch`: "Unable to load application information"). An argument's
 * `%%` is expanded like every field code, so `env "/a/100%%/app" %u` starts /a/100%/app.
 */
export function desktopExec(program: string, args: string[], fieldCodes: string[]): string {
  const start = program.includes('%') ? ['env'] : [];
  const parts = [...start, desktopExecArg(program, true), ...args.map((a) => desktopExecArg(a))];
  return desktopString([...parts, ...fieldCodes].join(' '));
}

/** A word for /bin/sh (and GLib's g_shell_parse_argv): single quotes, `'` as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Text or attribute content for XML. */
export function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
