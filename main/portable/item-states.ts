// A queue item's states, listed once: the queue, history, the CLI, the tray and the window all
// decide "still on its way" or "done" from these two lists, so a new state is added here or
// nowhere.

export const ACTIVE_STATES = [
  'queued', // accepted, waiting for a slot
  'waiting', // waiting out a backoff, a rate limit or a paused workspace
  'sending',
] as const;

export const FINISHED_STATES = [
  'delivered',
  'failed',
  'unknown', // the whole body was sent and no answer came: may have been delivered
  'cancelled',
] as const;

export type ActiveState = (typeof ACTIVE_STATES)[number];
export type FinishedState = (typeof FINISHED_STATES)[number];
export type ItemState = ActiveState | FinishedState;

const ACTIVE: ReadonlySet<string> = new Set(ACTIVE_STATES);
const FINISHED: ReadonlySet<string> = new Set(FINISHED_STATES);

/** Queued, waiting or sending: the item is still on its way. */
export function isActiveState(state: string): state is ActiveState {
  return ACTIVE.has(state);
}

/** Delivered, failed, unknown or cancelled: the item has a history entry (or will have). */
export function isFinishedState(state: string): state is FinishedState {
  return FINISHED.has(state);
}
