// What a person can do with a share some channels refused: send it once to the channels that
// did not ("Send to the others"), or choose the channels again ("Change destination…").
// Retrying as it was would only be refused the same way.
import type { Action } from '../use-action';

export function RefusedActions(props: {
  /** What the buttons act on, for their accessible names: a file name or a share's title. */
  what: string;
  /** "#general, #random": where "Send to the others" sends; none when every channel refused. */
  others: string;
  action: Action;
  onSendToOthers: () => Promise<unknown>;
  onChangeDestination: () => void;
}) {
  return (
    <>
      {props.others === '' ? null : (
        <button
          type="button"
          class="button button--small button--primary"
          aria-label={`Send to the others (${props.others}): ${props.what}`}
          disabled={props.action.busy}
          onClick={() => void props.action.run(props.onSendToOthers)}
        >
          Send to the others
        </button>
      )}
      <button
        type="button"
        class="button button--small"
        aria-label={`Change destination… for ${props.what}`}
        disabled={props.action.busy}
        onClick={props.onChangeDestination}
      >
        Change destination…
      </button>
    </>
  );
}
