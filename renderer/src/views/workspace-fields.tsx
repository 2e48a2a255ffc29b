// What a new workspace's form and a saved workspace's card both ask and check: the protocol
// choice and the as-you-type checks of the base URL and the token, so both say the same thing.
import { checkBaseUrl, checkToken } from '../../../main/portable/credentials';
import type { Protocol, TokenSaved } from '../../../preload/contract';

export const PROTOCOLS: { value: Protocol; label: string }[] = [
  { value: 'files.upload', label: 'files.upload (one request)' },
  { value: 'external', label: 'External upload (Slack, current)' },
];
export type NewProtocol = Protocol | 'auto';
export const NEW_PROTOCOLS: { value: NewProtocol; label: string }[] = [
  { value: 'auto', label: 'Whichever the service offers' },
  ...PROTOCOLS,
];

/** What adding a workspace found out, shown on its card until the next check. */
export interface Added {
  workspaceId: string;
  check: TokenSaved | null;
  protocolNote: string;
}

/** The base URL's problem as you type, or null. Empty is not reported until a save is tried. */
export function baseUrlError(value: string, attempted: boolean): string | null {
  if (value.trim() === '')
    return attempted ? 'Enter the service address, such as https://slack.com.' : null;
  const check = checkBaseUrl(value);
  return check.ok ? null : check.message;
}

/** The token's problem as you type (a pasted webhook URL, spaces), or null; empty is fine here. */
export function tokenError(value: string): string | null {
  if (value === '') return null;
  const check = checkToken(value);
  return check.ok ? null : check.message;
}

/** The protocol `<select>` with its label. */
export function ProtocolField<P extends string>(props: {
  id: string;
  value: P;
  options: { value: P; label: string }[];
  onChange: (value: P) => void;
}) {
  return (
    <div class="field">
      <label for={props.id} class="field__label">
        Protocol
      </label>
      <select
        id={props.id}
        class="input"
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value as P)}
      >
        {props.options.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
    </div>
  );
}
