// One result line per file, for people (stderr) and for scripts (`--json` on stdout).
import type { FailureReason, QueueItem, ServiceFile } from '../core/model';
import type { AttemptResult } from '../core/upload/attempt';
import { printable } from './printable';

export interface FileResult {
  file: string;
  /** queued: still in the CLI's queue (the service asked to wait past --max-wait). */
  outcome: 'delivered' | 'failed' | 'unknown' | 'queued';
  id: string | null;
  permalink: string | null;
  error: string | null;
  message?: string;
  /** Sent without its hidden details: what was removed ("location", "thumbnail"…). */
  removed?: string[];
}

function result(
  file: string,
  outcome: FileResult['outcome'],
  served?: ServiceFile,
  reason?: FailureReason,
): FileResult {
  return {
    file,
    outcome,
    id: served?.id ?? null,
    permalink: served?.permalink ?? null,
    error: reason?.code ?? null,
    ...(reason ? { message: reason.message } : {}),
  };
}

const CANCELLED: FailureReason = {
  class: 'other',
  code: 'cancelled',
  message: 'Cancelled before it was delivered.',
};

export function fromAttempt(file: string, attempt: AttemptResult): FileResult {
  switch (attempt.kind) {
    case 'delivered':
      return result(file, 'delivered', attempt.file);
    case 'failed':
      return result(file, 'failed', undefined, attempt.reason);
    case 'unknown':
      return result(file, 'unknown', undefined, attempt.reason);
    case 'cancelled':
      return result(file, 'failed', undefined, CANCELLED);
  }
}

export function fromItem(file: string, item: QueueItem): FileResult {
  const line = fromItemState(file, item);
  return item.stripped ? { ...line, removed: [...item.stripped.removed] } : line;
}

function fromItemState(file: string, item: QueueItem): FileResult {
  switch (item.state) {
    case 'delivered':
      return result(file, 'delivered', item.file);
    case 'unknown':
      return result(file, 'unknown', undefined, item.error);
    case 'cancelled':
      return result(file, 'failed', undefined, CANCELLED);
    case 'queued':
    case 'waiting':
    case 'sending':
      // Held with an outcome its journal could not record: a restart reads "may have been
      // delivered", so that is what is said now.
      if (item.error?.class === 'unknown-outcome')
        return result(file, 'unknown', undefined, item.error);
      return result(file, 'queued', undefined, {
        class: 'transient',
        code: item.error?.code ?? 'queued',
        message: `${item.error ? `${item.error.message} ` : ''}Still queued${item.retryAt ? `, next try in ${Math.ceil((item.retryAt - Date.now()) / 1000)} s` : ''}, longer than --max-wait: \`trayshare queue --run\` sends it then.`,
      });
    default:
      return result(file, 'failed', undefined, item.error);
  }
}

function describe(r: FileResult): string {
  const file = printable(r.file);
  const why = printable(r.message ?? r.error ?? '');
  switch (r.outcome) {
    case 'delivered':
      return `✓ ${file} delivered${r.permalink ? `: ${printable(r.permalink)}` : ''}${strippedWords(r)}`;
    case 'unknown':
      // Most reasons for "unknown" already say to check the channel; say it once.
      return /check the channel/i.test(why)
        ? `? ${file} may have been delivered: ${why}`
        : `? ${file} may have been delivered (${why}). Check the channel before sending it again.`;
    case 'failed':
      return `✗ ${file} failed: ${why}`;
    case 'queued':
      return `… ${file} waiting: ${why}`;
  }
}

/** ", without its location and thumbnail", when the file held any of them. */
function strippedWords(r: FileResult): string {
  const removed = r.removed ?? [];
  if (removed.length === 0) return '';
  const words =
    removed.length === 1
      ? removed[0]
      : `${removed.slice(0, -1).join(', ')} and ${removed[removed.length - 1]}`;
  return ` (without its ${words})`;
}

/** A photo or video whose details could not be removed safely was not sent: exit 2. */
const EXIT_METADATA_UNREADABLE = 2;

export function report(results: FileResult[], json: boolean): number {
  for (const r of results) {
    if (json) {
      // The message goes along with the code: a script can show why a path was refused.
      process.stdout.write(`${JSON.stringify(r)}\n`);
    } else {
      process.stderr.write(`${describe(r)}\n`);
    }
  }
  if (results.some((r) => r.error === 'metadata_unreadable')) return EXIT_METADATA_UNREADABLE;
  return results.every((r) => r.outcome === 'delivered') ? 0 : 1;
}
