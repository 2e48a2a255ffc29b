// A token workspace's token on its card: saved, replaced (only once the person says so: the old
// one is gone for good) or cleared, and what the service said of the saved one. The token itself
// is write-only here: it is never shown again.
import { useRef, useState } from 'preact/hooks';
import type { ConnectionCheck, TokenSaved, WorkspaceView } from '../../../preload/contract';
import { api } from '../bridge';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { ServiceWording } from '../ui/service-wording';
import type { Action } from '../use-action';
import { tokenError } from './workspace-fields';

export function TokenField(props: {
  workspace: WorkspaceView;
  prefix: string;
  check: ConnectionCheck | TokenSaved | null;
  setCheck: (check: ConnectionCheck | TokenSaved | null) => void;
  /** Saving and clearing the token. */
  secret: Action;
  /** Test connection, whose answer a newer save replaces. */
  test: Action;
}) {
  const { workspace: w, prefix, secret, test, setCheck } = props;
  const [token, setToken] = useState('');
  const [confirmReplace, setConfirmReplace] = useState(false);
  const tokenProblem = tokenError(token);

  const saveToken = async (confirmed = false) => {
    if (token === '' || tokenProblem) return;
    // A saved token is replaced only when the person says so: the old one is gone for good.
    if (w.hasToken && !confirmed) {
      setConfirmReplace(true);
      return;
    }
    setConfirmReplace(false);
    setCheck(null);
    // A newer answer replaces the older ones: no refusal left beside "Connected as…".
    test.clear();
    const result = await secret.run(() => api().saveToken(w.id, token.trim()));
    if (!result) return;
    setCheck(result);
    if (result.saved) setToken('');
  };
  const keep = () => {
    setConfirmReplace(false);
    document.getElementById(`${prefix}-token`)?.focus();
  };

  return (
    <div class="field">
      <TokenLabel workspace={w} prefix={prefix} />
      <div class="inline">
        <TokenInput
          prefix={prefix}
          value={token}
          hasToken={w.hasToken}
          problem={tokenProblem}
          onInput={(value) => {
            setToken(value);
            setConfirmReplace(false);
          }}
          onEnter={() => void saveToken()}
        />
        <TokenButtons
          workspace={w}
          secret={secret}
          disabled={token === '' || tokenProblem !== null || secret.busy || confirmReplace}
          onSave={() => void saveToken()}
        />
      </div>
      <p id={`${prefix}-token-help`} class={tokenProblem ? 'field__error' : 'field__help'}>
        {tokenProblem ??
          'Checked with the service, then kept in the system keychain. It is never shown again, only replaced or cleared.'}
      </p>
      {confirmReplace ? (
        <ReplaceQuestion name={w.name} onKeep={keep} onReplace={() => void saveToken(true)} />
      ) : null}
      {w.tokenRefused && !props.check ? (
        <Notice tone="error">
          <ServiceWording
            inSettings
            message={`The service refused the saved token: ${w.tokenRefused.replace(/\s*Paste a new token for this workspace in Settings\.\s*$/, '')} Paste a new one above.`}
          />
        </Notice>
      ) : null}
      <ActionError error={secret.error} />
    </div>
  );
}

/** The password field a token is pasted into; Enter saves it. */
function TokenInput(props: {
  prefix: string;
  value: string;
  hasToken: boolean;
  problem: string | null;
  onInput: (value: string) => void;
  onEnter: () => void;
}) {
  const { prefix, problem } = props;
  return (
    <input
      id={`${prefix}-token`}
      type="password"
      class={`input input--mono input--grow${problem ? ' input--invalid' : ''}`}
      value={props.value}
      // Short enough to read whole at 480 px beside its buttons.
      placeholder={props.hasToken ? 'New token…' : 'xoxb-…'}
      autocomplete="off"
      spellcheck={false}
      aria-invalid={problem !== null}
      aria-describedby={`${prefix}-token-help`}
      onInput={(e) => props.onInput(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          props.onEnter();
        }
      }}
    />
  );
}

/** "Token saved", "not set" or "refused by the service", beside the field's name. */
function TokenLabel(props: { workspace: WorkspaceView; prefix: string }) {
  const w = props.workspace;
  const tokenState = w.tokenRefused ? 'refused' : w.hasToken ? 'saved' : 'missing';
  return (
    <label for={`${props.prefix}-token`} class="field__label">
      Token{' '}
      <span class={`token-state token-state--${tokenState}`}>
        {tokenState === 'refused'
          ? 'refused by the service'
          : tokenState === 'saved'
            ? 'saved'
            : 'not set'}
      </span>
    </label>
  );
}

/** Save token (or Replace token) and, once one is saved, Clear. */
function TokenButtons(props: {
  workspace: WorkspaceView;
  secret: Action;
  disabled: boolean;
  onSave: () => void;
}) {
  const { workspace: w, secret } = props;
  return (
    <>
      <button type="button" class="button" disabled={props.disabled} onClick={props.onSave}>
        {secret.busy ? 'Checking…' : w.hasToken ? 'Replace token' : 'Save token'}
      </button>
      {w.hasToken ? (
        <ConfirmButton
          label="Clear"
          ariaLabel={`Clear the token of ${w.name}`}
          question="Forget the saved token?"
          confirmLabel="Clear token"
          onConfirm={() => void secret.run(() => api().clearToken(w.id))}
        />
      ) : null}
    </>
  );
}

/** "Replace the saved token of Acme?": Keep the old one (focused, and Esc) or Replace. */
function ReplaceQuestion(props: { name: string; onKeep: () => void; onReplace: () => void }) {
  // Focus goes to the safe answer once per question, not on every render while it is asked.
  const keepAsked = useRef(false);
  return (
    <fieldset
      class="confirm confirm--block"
      aria-label="Replace the token?"
      // Esc answers "Keep the old one", as in every other question.
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        props.onKeep();
      }}
    >
      <span class="confirm__question">
        Replace the saved token of {props.name}? The old one is forgotten.
      </span>
      <button
        type="button"
        class="button"
        // Asked, focus is on the safe answer, as in every other question.
        ref={(el) => {
          if (el && !keepAsked.current) {
            keepAsked.current = true;
            el.focus();
          }
        }}
        onClick={props.onKeep}
      >
        Keep the old one
      </button>
      <button type="button" class="button button--primary" onClick={props.onReplace}>
        Replace
      </button>
    </fieldset>
  );
}
