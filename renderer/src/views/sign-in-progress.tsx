// A sign-in with Slack while it happens, shared by a new workspace's form and "Sign in again"
// on a card: the browser is out and Cancel takes focus, then the core's answer, where focus goes
// when it is a refusal or a cancel. A new workspace (or another account) is kept only once the
// person says who signed in is them: someone else on the computer could have approved the
// consent page first, as themselves (main/core/auth/sign-in-confirm.ts).
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type {
  SignInEnd,
  SignInRequest,
  SignInResult,
  SignInToConfirm,
} from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';

type Failure = Extract<SignInResult, { ok: false }>;

/** A sign-in under way: waiting for the browser, then who signed in to confirm, then its answer. */
export function useSignIn(onSignedIn: (result: Extract<SignInResult, { ok: true }>) => void) {
  const [waiting, setWaiting] = useState(false);
  const [asking, setAsking] = useState<SignInToConfirm | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const call = useAction();
  const ended = (result: SignInEnd | undefined) => {
    if (!result) return;
    if (result.ok) onSignedIn(result);
    else setFailure(result);
  };
  const start = async (request: SignInRequest) => {
    setFailure(null);
    setAsking(null);
    setWaiting(true);
    const result = await call.run(() => api().signInWithSlack(request));
    setWaiting(false);
    if (result?.ok === 'confirm') setAsking(result);
    else ended(result);
  };
  /** The person's answer to "Slack signed in @alice in Globex": keep it, or end it. */
  const answer = async (keep: boolean) => {
    if (!asking || call.busy) return;
    const result = await call.run(() => api().confirmSignIn(asking.pendingId, keep));
    setAsking(null);
    ended(result);
  };
  const cancel = () => void call.run(() => api().cancelSignIn());
  return { waiting, asking, busy: call.busy, failure, error: call.error, start, answer, cancel };
}

/**
 * Who signed in, before anything is kept: "Use this account" keeps it, Cancel (or Esc) ends it
 * at the service. Focus goes to the sentence, not to a button, so an Enter meant for the button
 * that was there before keeps nothing, and a screen reader reads who it is.
 */
export function ConfirmWho(props: {
  asking: SignInToConfirm;
  busy: boolean;
  id: string;
  onAnswer: (keep: boolean) => void;
}) {
  const who = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => who.current?.focus(), []);
  const { user, team } = props.asking;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with its two answers, not a form field set
    <div
      class="confirm-sign-in"
      role="group"
      aria-labelledby={`${props.id}-who`}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // Esc answers Cancel, as it closes any question; the view around it stays open.
        e.preventDefault();
        e.stopPropagation();
        if (!props.busy) props.onAnswer(false);
      }}
    >
      <p id={`${props.id}-who`} class="confirm-sign-in__who" tabIndex={-1} ref={who}>
        Slack signed in <strong>{user}</strong> in <strong>{team}</strong>. Is this you?
      </p>
      <p class="field__help">
        Keep it only if this is your account and your workspace: files you share from here will be
        posted there. If it is not you, Cancel ends that sign-in.
      </p>
      <div class="actions">
        <button
          type="button"
          class="button"
          disabled={props.busy}
          onClick={() => props.onAnswer(false)}
        >
          Cancel
        </button>
        <button
          type="button"
          class="button button--primary"
          disabled={props.busy}
          onClick={() => props.onAnswer(true)}
        >
          Use this account
        </button>
      </div>
    </div>
  );
}

/** A sign-in that did not happen: focus goes to why, the button pressed being gone. */
export function useFocusOnFailure(
  signIn: { failure: Failure | null; error: string | null },
  id: string,
) {
  const failureShown = signIn.failure !== null || signIn.error !== null;
  useLayoutEffect(() => {
    if (failureShown) document.getElementById(id)?.focus();
  }, [failureShown, signIn.failure, id]);
}

/** "Waiting for you to approve in your browser…" with Cancel, which takes focus. */
export function Waiting(props: { onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => cancel.current?.focus(), []);
  return (
    <div class="inline" role="status">
      <span>Waiting for you to approve in your browser…</span>
      <button type="button" class="button" ref={cancel} onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** Why it did not sign in: a cancel is the person's own choice, not an error. */
export function SignInFailure(props: {
  failure: Failure | null;
  error: string | null;
  id: string;
}) {
  if (props.failure) {
    return (
      <div id={props.id} tabIndex={-1}>
        <Notice tone={props.failure.reason === 'cancelled' ? 'info' : 'error'}>
          {props.failure.message}
        </Notice>
      </div>
    );
  }
  return <ActionError error={props.error} id={props.id} />;
}
