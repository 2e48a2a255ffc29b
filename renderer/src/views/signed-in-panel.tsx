// A signed-in workspace on its card: who it is signed in as, Sign out (asked first when files
// wait for it), and Sign in again once the sign-in ran out or was ended. Signing out keeps the
// workspace and its presets; its files wait for the next sign-in.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { BUILT_IN_SLACK_CLIENT_ID } from '../../../main/portable/build-defaults';
import type { QueueItem, WorkspaceView } from '../../../preload/contract';
import { api } from '../bridge';
import { countFiles } from '../format';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';
import {
  ConfirmWho,
  SignInFailure,
  useFocusOnFailure,
  useSignIn,
  Waiting,
} from './sign-in-progress';
import { CopySetupLink } from './slack-team-setup';

/** "2 files wait for Acme." */
function filesWait(count: number, workspace: string): string {
  return `${countFiles(count)} ${count === 1 ? 'waits' : 'wait'} for ${workspace}.`;
}

/** A signed-in workspace's card: who, Sign out; or, once the sign-in ran out, Sign in again. */
export function SignedInPanel(props: { workspace: WorkspaceView; waiting: readonly QueueItem[] }) {
  const w = props.workspace;
  const prefix = `ws-${w.id}`;
  const out = useAction();
  // Signed in again or out, the button pressed is gone: focus goes to what the card now says.
  const [answered, setAnswered] = useState(0);
  useLayoutEffect(() => {
    if (answered > 0) document.getElementById(`${prefix}-signed-in`)?.focus();
  }, [answered, prefix]);
  const signIn = useSignIn(() => setAnswered((n) => n + 1));
  const expired = w.signedIn?.expired === true;
  const signedOut = !expired && !w.hasToken;
  const waiting = props.waiting.length;
  useFocusOnFailure(signIn, `${prefix}-sign-in-answer`);

  const signOut = (evenIfWaiting: boolean) =>
    out.run(async () => {
      const result = await api().signOut(w.id, { evenIfWaiting });
      // Files were queued since the card was drawn: the question comes with the next press.
      if (!result.ok) throw new Error(`${filesWait(result.waiting, w.name)} Sign out anyway?`);
      setAnswered((n) => n + 1);
      // Signed out here, but the service did not end the sign-in: said, never hidden.
      if (!result.revoked) throw new Error(result.message);
    });

  const clientId = w.clientId ?? BUILT_IN_SLACK_CLIENT_ID;
  const again = () => {
    void signIn.start({ workspaceId: w.id, baseUrl: w.baseUrl, clientId });
  };

  return (
    <div class="field" id={`${prefix}-signed-in`} tabIndex={-1}>
      <SignedInStatus workspace={w} expired={expired} signedOut={signedOut} waiting={waiting} />
      <SignInFailure
        failure={signIn.failure}
        error={signIn.error}
        id={`${prefix}-sign-in-answer`}
      />
      {signIn.waiting ? (
        <Waiting onCancel={signIn.cancel} />
      ) : signIn.asking ? (
        // Signed in again by another account than before (or after a sign-out): asked first.
        <ConfirmWho
          asking={signIn.asking}
          busy={signIn.busy}
          id={`${prefix}-sign-in-confirm`}
          onAnswer={(keep) => void signIn.answer(keep)}
        />
      ) : (
        <div class="inline">
          {expired || signedOut ? (
            <button
              type="button"
              class="button button--primary"
              disabled={clientId === ''}
              onClick={again}
            >
              Sign in again
            </button>
          ) : null}
          {signedOut ? null : (
            <SignOut workspace={w} waiting={waiting} busy={out.busy} onSignOut={signOut} />
          )}
        </div>
      )}
      <ActionError error={out.error} />
      {!expired && !signedOut && w.clientId ? (
        <CopySetupLink link={{ baseUrl: w.baseUrl, clientId: w.clientId, name: w.name }} />
      ) : null}
    </div>
  );
}

/** Who the workspace is signed in as; or that the sign-in ran out, or was ended, and what waits. */
function SignedInStatus(props: {
  workspace: WorkspaceView;
  expired: boolean;
  signedOut: boolean;
  waiting: number;
}) {
  const { workspace: w, expired, signedOut, waiting } = props;
  return expired || signedOut ? (
    <Notice tone={expired ? 'error' : 'info'}>
      {`${expired ? `Your sign-in to ${w.name} has run out.` : `You are signed out of ${w.name}.`}${waiting > 0 ? ` ${countFiles(waiting)} ${waiting === 1 ? 'waits and goes' : 'wait and go'} once you sign in again.` : ' Sign in again to share there.'}`}
    </Notice>
  ) : (
    <p class="field__ok" role="status">
      {`Signed in as ${w.signedIn?.user ?? 'you'} in ${w.signedIn?.team ?? w.name}.`}
    </p>
  );
}

/** Sign out: asked first when files wait for the workspace, which then wait for a sign-in. */
function SignOut(props: {
  workspace: WorkspaceView;
  waiting: number;
  busy: boolean;
  onSignOut: (evenIfWaiting: boolean) => Promise<void>;
}) {
  const { workspace: w, waiting } = props;
  return waiting > 0 ? (
    <ConfirmButton
      label="Sign out"
      ariaLabel={`Sign out of ${w.name}`}
      question={`${filesWait(waiting, w.name)} Sign out anyway?`}
      confirmLabel="Sign out"
      keepLabel="Stay signed in"
      onConfirm={() => props.onSignOut(true)}
    />
  ) : (
    <button
      type="button"
      class="button"
      aria-label={`Sign out of ${w.name}`}
      disabled={props.busy}
      onClick={() => void props.onSignOut(false)}
    >
      Sign out
    </button>
  );
}

/** A signed-in card's "Advanced": the service's name, address and protocol, and Test connection. */
export function SignedInAdvanced(props: { prefix: string; children: ComponentChildren }) {
  return (
    <details class="card__advanced" id={`${props.prefix}-advanced`}>
      <summary>Advanced</summary>
      <div class="card__advanced-body">{props.children}</div>
    </details>
  );
}
