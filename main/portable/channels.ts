// Channel lists as people type them ("C1, C2,,C1") become what files.upload wants ("C1,C2").

export const MAX_CHANNELS = 100;

export type ChannelsResult = { ok: true; channels: string[] } | { ok: false; error: string };

// Whitespace, commas and control characters cannot be part of an ID sent as `C1,C2`.
const FORBIDDEN = /[\s,\p{Cc}]/u;
const PERSON_FORBIDDEN = /[,\p{Cc}]/u;

function describe(ch: string): string {
  if (ch === ',') return 'a comma';
  if (/\s/u.test(ch)) return 'a space';
  return `a control character (U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * Normalises a channel list: splits text on commas and line breaks, trims each entry, drops
 * empties and repeats (keeping the first), then refuses IDs that cannot travel in `channels`.
 */
export function normaliseChannels(input: string | readonly string[]): ChannelsResult {
  const parts = typeof input === 'string' ? input.split(/[,\r\n]+/) : input;
  const seen = new Set<string>();
  const channels: string[] = [];
  for (const raw of parts) {
    const id = raw.trim();
    if (id === '' || seen.has(id)) continue;
    // `@Bob Builder` is a person's full name, resolved to their ID before anything is sent.
    const bad = (id.startsWith('@') ? PERSON_FORBIDDEN : FORBIDDEN).exec(id);
    if (bad) {
      return {
        ok: false,
        error: `Channel ID "${printable(id)}" contains ${describe(bad[0])}; IDs look like C0123ABCD, separated by commas.`,
      };
    }
    seen.add(id);
    channels.push(id);
  }
  if (channels.length === 0) {
    return {
      ok: false,
      error: 'No channel given: enter at least one channel ID, such as C0123ABCD.',
    };
  }
  if (channels.length > MAX_CHANNELS) {
    return {
      ok: false,
      error: `${channels.length} channels given; one upload can be shared to at most ${MAX_CHANNELS}.`,
    };
  }
  return { ok: true, channels };
}

function printable(id: string): string {
  return id.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
