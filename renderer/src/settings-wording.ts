// The core's messages are written to be read anywhere (the queue, a notification, the CLI), so
// they say where to go and carry the service's code: "… (the service answered
// method_deprecated) … in Settings". In the window the code is jargon in the middle of the
// sentence: it moves to small print after it, for support. Read in Settings, "in Settings"
// points the wrong way: there the sentence says "above".

const CODE = /\s\((?:the service answered |it answered )?([a-z][a-z0-9_]*)\)/;

/** The sentence without the service's code, and the code (if it had one). */
export function plainWording(message: string): { text: string; code: string | null } {
  const code = CODE.exec(message)?.[1] ?? null;
  const text = message.replace(CODE, '').replace(/\s+/g, ' ').trim();
  return { text, code };
}

/** As plainWording, read in Settings: "above" rather than "in Settings". */
export function inSettings(message: string): { text: string; code: string | null } {
  const { text, code } = plainWording(message);
  return {
    text: text
      .replace(/Paste a new token for this workspace in Settings\./g, 'Paste a new token above.')
      .replace(/ in Settings/g, ' above'),
    code,
  };
}
