// What an item that waits for its journal says: the folder that cannot be written, why, and
// that the file waits (the same words the CLI uses before anything is sent).
import type { FailureReason, ItemState } from '../model';
import type { JournalWriteError } from './item-store';

/** Codes of items held because their journal cannot be written; they wait for the person. */
export const UNWRITABLE_JOURNAL_CODES: ReadonlySet<string> = new Set([
  'disk_full',
  'state_read_only',
  'state_unwritable',
]);

function why(error: JournalWriteError): { code: string; text: string; fix: string } {
  switch (error.code) {
    case 'ENOSPC':
      return { code: 'disk_full', text: 'the disk is full', fix: 'Free some space' };
    case 'EDQUOT':
      return { code: 'disk_full', text: 'your disk quota is used up', fix: 'Free some space' };
    case 'EROFS':
      return {
        code: 'state_read_only',
        text: 'it is on a read-only file system',
        fix: 'Make it writable again',
      };
    default:
      return {
        code: 'state_unwritable',
        text: `it cannot be written (${error.code})`,
        fix: 'Fix the folder',
      };
  }
}

/** An item held before its outcome was known: it goes (again) once the journal can be written. */
export function unwritableReason(error: JournalWriteError): FailureReason {
  const { code, text, fix } = why(error);
  return {
    class: 'transient',
    code,
    message: `Trayshare cannot write to ${error.dir}: ${text}. ${fix}; the files wait.`,
  };
}

/**
 * An item whose outcome is known but not recorded. Until it is, a restart goes by what the
 * journal holds: "may have been delivered" once the whole file had gone, else sent again.
 */
export function unrecordedReason(
  error: JournalWriteError,
  name: string,
  outcome: ItemState,
  bodySent: boolean,
): FailureReason {
  const { code, text, fix } = why(error);
  const meanwhile = bodySent
    ? 'until it is recorded it counts as "may have been delivered"'
    : 'until it is recorded it counts as queued';
  return {
    class: bodySent ? 'unknown-outcome' : 'transient',
    code,
    message: `Trayshare cannot write to ${error.dir}: ${text}, so it could not record that ${name} was ${outcome}. ${fix}; ${meanwhile}.`,
  };
}
