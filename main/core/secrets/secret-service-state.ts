// Why keytar answered "nothing stored" on Linux. libsecret's lookup and delete skip items they
// cannot unlock, so a locked keyring (no unlock prompt possible, or dismissed) and a keyring
// that was never set up both look like "no token". The Secret Service itself tells them apart:
// SearchItems returns matching items in two lists, unlocked and locked (the attributes of a
// locked gnome-keyring item are still searchable), and ReadAlias("default") is "/" when there is
// no default (login) keyring. We ask through `gdbus` (GLib's D-Bus tool, beside the libsecret
// keytar already needs) rather than a second D-Bus stack in the process; without gdbus the answer
// is "unknown" and the caller keeps keytar's answer.
import { execFile } from 'node:child_process';
import { pathProgram } from '../system-programs';

export type SecretServiceState =
  /** A matching item exists but is locked: the token may well be there. */
  | 'locked'
  /** There is no default (login) keyring at all. */
  | 'no-default-keyring'
  /** Nothing matches, in an existing keyring: the token really is absent. */
  | 'absent'
  /** The Secret Service could not be asked (no gdbus, no session bus, a timeout). */
  | 'unknown';

const DEST = ['--session', '--dest', 'org.freedesktop.secrets'];
const SERVICE_PATH = ['--object-path', '/org/freedesktop/secrets'];

function gdbus(args: string[]): Promise<string | undefined> {
  // Found on PATH, by its full path (system-programs.ts); not installed: unknown.
  const program = pathProgram('gdbus');
  if (!program) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(
      program,
      ['call', ...DEST, ...SERVICE_PATH, ...args],
      { timeout: 10_000 },
      (err, out) => resolve(err ? undefined : out),
    );
  });
}

/** A GVariant text string literal: gdbus parses its arguments as GVariant text. */
function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Parses `(@ao [], [objectpath '/…/1'])`: is the second (locked) list non-empty? */
function lockedMatches(output: string): boolean | undefined {
  const match = /^\((?:@ao )?\[([^\]]*)\], (?:@ao )?\[([^\]]*)\]\)/.exec(output.trim());
  if (!match) return undefined;
  return (match[2] ?? '').includes('objectpath');
}

/** Parses `(objectpath '/',)`: is a default collection set? */
function hasDefaultAlias(output: string): boolean | undefined {
  const match = /^\(objectpath '([^']*)',\)/.exec(output.trim());
  if (!match) return undefined;
  return match[1] !== '/';
}

/** What the Secret Service holds for keytar's item (attributes service and account). */
export async function secretServiceState(
  service: string,
  account: string,
): Promise<SecretServiceState> {
  const attributes = `{'service': ${literal(service)}, 'account': ${literal(account)}}`;
  const search = await gdbus([
    '--method',
    'org.freedesktop.Secret.Service.SearchItems',
    attributes,
  ]);
  const locked = search === undefined ? undefined : lockedMatches(search);
  if (locked === undefined) return 'unknown';
  if (locked) return 'locked';
  const alias = await gdbus(['--method', 'org.freedesktop.Secret.Service.ReadAlias', "'default'"]);
  const hasDefault = alias === undefined ? undefined : hasDefaultAlias(alias);
  if (hasDefault === undefined) return 'unknown';
  return hasDefault ? 'absent' : 'no-default-keyring';
}
