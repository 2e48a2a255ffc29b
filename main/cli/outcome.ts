// One result line per file, for people (stderr) and for scripts (`--json` on stdout).
import type { FailureReason, QueueItem, ServiceFile } from '../core/model';
import type { AttemptResult } from '../core/upload/engine';

export interface FileResult {
  file: string;
  outcome: 'delivered' | 'failed' | 'unknown';
  id: string | null;
  permalink: string | null;
  error: string | null;
  message?: string;
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
  switch (item.state) {
    case 'delivered':
      return result(file, 'delivered', item.file);
    case 'unknown':
      return result(file, 'unknown', undefined, item.error);
    case 'cancelled':
      return result(file, 'failed', undefined, CANCELLED);
    default:
      return result(file, 'failed', undefined, item.error);
  }
}

export function describe(r: FileResult): string {
  switch (r.outcome) {
    case 'delivered':
      return `✓ ${r.file} delivered${r.permalink ? `: ${r.permalink}` : ''}`;
    case 'unknown':
      return `? ${r.file} may have been delivered (${r.message ?? r.error}). Check the channel before sending it again.`;
    case 'failed':
      return `✗ ${r.file} failed: ${r.message ?? r.error}`;
  }
}

export function report(results: FileResult[], json: boolean): number {
  for (const r of results) {
    if (json) {
      const { message: _message, ...line } = r;
      process.stdout.write(`${JSON.stringify(line)}\n`);
    } else {
      process.stderr.write(`${describe(r)}\n`);
    }
  }
  return results.every((r) => r.outcome === 'delivered') ? 0 : 1;
}
