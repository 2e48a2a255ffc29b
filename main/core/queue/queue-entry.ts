// One queued item as the queue holds it while it runs: the journaled item and meta, and what
// is under way for it now. Shared by the queue's parts; not part of its interface.
import type { FinishedState } from '../../portable/item-states';
import type { ItemPatch, JournalEntry } from './journal';

export interface Run {
  controller: AbortController;
  /** The person cancelled it. */
  cancel: boolean;
  /** Aborted because the queue is closing: the journal keeps it as it was. */
  closing: boolean;
  done: Promise<void>;
}

export type { FinishedState } from '../../portable/item-states';

export interface Entry extends JournalEntry {
  run?: Run;
  /** An outcome known but not yet journaled (the disk was full): recorded before anything else. */
  unrecorded?: { state: FinishedState; patch: ItemPatch };
  /** Its outcome is being journaled: not to be started meanwhile. */
  finishing?: boolean;
  /** Tries since the journal last took a record for it (spaces out the next ones). */
  unwritableTries?: number;
}
