// How the log names a file. Its name can say what it holds ("salaries-2026.xlsx"), so by default
// the log keeps only what helps find a problem: its kind and size. "Detailed logs" (a preference,
// off by default) lets the name through, for a person who chooses to share it.
import { extname } from 'node:path';
import { formatBytes } from '../../portable/format-bytes';

/** A plain, short extension; anything longer or odd could be part of the name. */
const PLAIN_EXTENSION = /^\.[a-z0-9]{1,8}$/;

/** "a .png of 2.1 MB"; with detailed logs, "“name.png” (2.1 MB)". */
export function describeFile(name: string, size: number, detailed: boolean): string {
  if (detailed) return `“${name}” (${formatBytes(size)})`;
  const ext = extname(name).toLowerCase();
  const kind = PLAIN_EXTENSION.test(ext) ? `a ${ext}` : 'a file';
  return `${kind} of ${formatBytes(size)}`;
}

/** Cuts the file's name and path out of a message (an error may quote them). */
export function withoutName(message: string, file: { name: string; path: string }): string {
  let out = message;
  for (const secret of [file.path, file.name]) {
    if (secret.length >= 3) out = out.split(secret).join('[file]');
  }
  return out;
}
