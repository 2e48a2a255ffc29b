// Numbers and lists as people read them: sizes, speeds, durations, times and share summaries.

import { formatBytes } from '../../main/portable/format-bytes';
import type { ChannelRef } from '../../preload/contract';

export { formatBytes };

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

/** "12 s", "3 min 5 s", "1 h 4 min": rounded up, so a countdown never shows 0 while waiting. */
export function formatDuration(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 1000));
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes < 60) return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export function formatTime(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  const today = new Date(now);
  const sameDay = date.toDateString() === today.toDateString();
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (sameDay) return time;
  return `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${time}`;
}

/** "#design-review" when the channel has a name, else its ID (the ID is on hover: channelIds). */
export function channelName(ref: ChannelRef): string {
  const label = ref.label?.trim().replace(/^#/, '');
  if (!label) return ref.id;
  // A DM is named after its person (`@U0ALICE`), not as a channel.
  return label.startsWith('@') ? label : `#${label}`;
}

/** "#design-review: C0DESIGN, #general: C0GENERAL", for a hover title where names are shown. */
export function channelIds(refs: readonly ChannelRef[]): string {
  return refs.map((ref) => (ref.label ? `${channelName(ref)}: ${ref.id}` : ref.id)).join(', ');
}

function listChannels(refs: readonly ChannelRef[], max = 5): string {
  const names = refs.slice(0, max).map(channelName);
  const more = refs.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

export function countFiles(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

export interface SummaryInput {
  files: number;
  /** Picked paths the sheet will not send (missing, an empty folder…). */
  leftOut?: number;
  channels: readonly ChannelRef[];
  workspace: string;
  comment: boolean;
}

/** The summary around its destinations, so the sheet can mark people with their icon. */
export function shareSummaryParts(opts: SummaryInput): {
  before: string;
  /** channelName of each destination; empty when none is chosen yet. */
  targets: string[];
  after: string;
} {
  const where = opts.workspace ? ` in ${opts.workspace}` : '';
  const comment = opts.comment ? ', with comment' : ', no comment';
  const left = opts.leftOut ? ` (${opts.leftOut} left out)` : '';
  return {
    before: `${countFiles(opts.files)}${left} → ${opts.channels.length === 0 ? 'no channel yet' : ''}`,
    targets: opts.channels.map(channelName),
    after: `${where}${comment}`,
  };
}

/** The share sheet's one-line summary: "3 files → #design-review, C0GENERAL in Acme, with comment". */
export function shareSummary(opts: SummaryInput): string {
  const parts = shareSummaryParts(opts);
  return `${parts.before}${opts.channels.length === 0 ? '' : listChannels(opts.channels)}${parts.after}`;
}

/**
 * How many messages a share makes. files.upload shares each file by its own request, so the
 * comment goes with the first only; Slack's external protocol shares up to 10 files as one
 * message, each message with the comment.
 */
export function messagesSummary(
  files: number,
  comment: boolean,
  protocol: 'files.upload' | 'external' = 'files.upload',
): string {
  if (files <= 1) return 'One message';
  if (protocol === 'external') {
    const messages = Math.ceil(files / 10);
    if (messages === 1) return `${files} files, one message`;
    return `${files} files, ${messages} messages${comment ? ', the comment on each' : ''}`;
  }
  return comment ? `${files} messages, the comment on the first` : `${files} messages`;
}

/** Last path segment, for either separator: paths come from macOS, Windows and Linux. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts.at(-1) ?? path;
}
