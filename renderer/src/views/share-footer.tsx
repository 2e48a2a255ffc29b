// The sheet's footer: the one-line summary of what goes where, what stops Share (with a way
// out when a preset's channels clash with a thread), and the buttons. Small at tray size.
import type { Snapshot } from '../../../preload/contract';
import { messagesSummary, type SummaryInput, shareSummaryParts } from '../format';
import { ActionError, Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';

export function ShareFooter(props: {
  summary: SummaryInput;
  /** Shown once Share was tried, or at once when nothing picked can be shared. */
  problem: string | null;
  /** Offered after the problem when a preset's several channels clash with a thread. */
  onChooseThreadChannel: (() => void) | null;
  error: string | null;
  busy: boolean;
  /** The workspace's protocol, which decides how many messages a share makes. */
  protocol: Snapshot['workspaces'][number]['protocol'] | undefined;
  onCancel: () => void;
}) {
  return (
    <div class="sheet__footer">
      <p class="summary" aria-live="polite">
        <ShareSummary {...props.summary} />
      </p>
      {props.problem ? (
        <Notice tone="error">
          {props.problem}
          {props.onChooseThreadChannel ? (
            <>
              {' '}
              <button type="button" class="link" onClick={props.onChooseThreadChannel}>
                Choose the channel instead
              </button>
            </>
          ) : null}
        </Notice>
      ) : null}
      <ActionError error={props.error} />

      <div class="actions">
        {/* Beside the buttons, not a line of its own: the footer stays small at tray size. */}
        <p class="messages-line muted">
          {messagesSummary(props.summary.files, props.summary.comment, props.protocol)}
        </p>
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          class="button button--primary"
          disabled={props.busy || props.summary.files === 0}
        >
          {props.busy ? 'Sharing…' : 'Share'}
        </button>
      </div>
    </div>
  );
}

/** The one-line summary, people marked with their icon. */
function ShareSummary(props: SummaryInput) {
  const parts = shareSummaryParts(props);
  return (
    <>
      {parts.before}
      <DestinationList labels={parts.targets} max={5} />
      {parts.after}
    </>
  );
}
