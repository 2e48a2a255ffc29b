// The core's messages are written to be read anywhere (the queue, a notification, the CLI), so
// they say where to go: "Paste a new token … in Settings". Read in Settings, that points the
// wrong way, and a service's code such as "(invalid_auth)" in the middle of the sentence is
// jargon. Here the sentence says "above" and the code moves to small print for support.

/** The message as Settings shows it, and the service's code taken out of it (if it had one). */
export function inSettings(message: string): { text: string; code: string | null } {
  const code = /\s\(([a-z][a-z0-9_]*)\)/.exec(message)?.[1] ?? null;
  const text = message
    .replace(/\s\([a-z][a-z0-9_]*\)/, '')
    .replace(/Paste a new token for this workspace in Settings\./g, 'Paste a new token above.')
    .replace(/ in Settings/g, ' above')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, code };
}
