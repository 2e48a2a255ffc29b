// One rule for every damaged file Trayshare sets aside (the settings file, the queue journal,
// the history, a channel or people list): the file's own name, then `.damaged-` and when it was
// set aside in UTC, e.g. config.json.damaged-2026-11-21T22-41-03-120Z. docs/cli.md says so.

/** `path.damaged-TIME`; a later try in the same millisecond adds `-2`, `-3`… */
export function damagedName(path: string, now = Date.now(), attempt = 0): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  return `${path}.damaged-${stamp}${attempt > 0 ? `-${attempt + 1}` : ''}`;
}

/** When a kept copy named by damagedName (from its base name `name`) was set aside, or undefined. */
export function damagedAt(fileName: string, name: string): number | undefined {
  if (!fileName.startsWith(`${name}.damaged-`)) return undefined;
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z(?:-\d+)?$/.exec(
    fileName.slice(name.length + '.damaged-'.length),
  );
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}
