// A sign-in with Slack while it happens, shared by a new workspace's form and "Sign in again"
// on a card: the browser is out and Cancel takes focus, then the core's answer, where focus goes
// when it is a refusal or a cancel.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { SignInRequest, SignInResult } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';

type Failure = Extract<SignInResult, { ok: false }>;

/** A sign-in under way: waiting for the browser, then its answer. */
export function useSignIn(onSignedIn: (result: Extract<SignInResult, { ok: true }>) => void) {
  const [waiting, setWaiting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const call = useAction();
  const start = async (request: SignInRequest) => {
    setFailure(null);
    setWaiting(true);
    const result = await call.run(() => api().signInWithSlack(request));
    setWaiting(false);
    if (!result) return;
    if (result.ok) onSignedIn(result);
    else setFailure(result);
  };
  const cancel = () => void call.run(() => api().cancelSignIn());
  return { waiting, failure, error: call.error, start, cancel };
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
