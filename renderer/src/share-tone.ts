// One colour for a share's badge wherever it shows (Queue and History read the same share the
// same way): green only when every file arrived, red when one needs a decision, grey when the
// rest were cancelled, and the sending colour while files still go.
export type ShareTone = 'sending' | 'delivered' | 'failed' | 'cancelled';

export function shareTone(states: readonly string[]): ShareTone {
  if (states.some((s) => s === 'queued' || s === 'waiting' || s === 'sending')) return 'sending';
  if (states.some((s) => s === 'failed' || s === 'unknown')) return 'failed';
  if (states.every((s) => s === 'delivered')) return 'delivered';
  return 'cancelled';
}
