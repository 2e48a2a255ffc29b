// Sign in with Slack as a person sees it: one button, "Waiting for you to approve in your
// browser…" with Cancel while the browser is out, then who they are signed in as, or one
// sentence saying why not (the core's, per reason; nothing is saved then). The same waiting
// and answers serve a new workspace and "Sign in again" on one whose sign-in ran out.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { BUILT_IN_SLACK_CLIENT_ID } from '../../../main/portable/build-defaults';
import { checkBaseUrl } from '../../../main/portable/credentials';
import type { SetupLink } from '../../../main/portable/setup-link';
import type {
  QueueItem,
  SignInRequest,
  SignInResult,
  WorkspaceView,
} from '../../../preload/contract';
import { api } from '../bridge';
import { countFiles } from '../format';
import { useOfferedSetupLink } from '../setup-link-store';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { TextField } from '../ui/text-field';
import { useAction } from '../use-action';
import { CopySetupLink, CreateSlackApp, PasteSetupLink } from './slack-team-setup';

type Failure = Extract<SignInResult, { ok: false }>;

/** A sign-in under way: waiting for the browser, then its answer. */
function useSignIn(onSignedIn: (result: Extract<SignInResult, { ok: true }>) => void) {
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
function useFocusOnFailure(signIn: { failure: Failure | null; error: string | null }, id: string) {
  const failureShown = signIn.failure !== null || signIn.error !== null;
  useLayoutEffect(() => {
    if (failureShown) document.getElementById(id)?.focus();
  }, [failureShown, signIn.failure, id]);
}

/** "Waiting for you to approve in your browser…" with Cancel, which takes focus. */
function Waiting(props: { onCancel: () => void }) {
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
function SignInFailure(props: { failure: Failure | null; error: string | null; id: string }) {
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

function clientIdError(value: string, attempted: boolean): string | null {
  if (value.trim() === '') return attempted ? 'Paste the Slack app’s Client ID.' : null;
  return /^[A-Za-z0-9._-]{1,200}$/.test(value.trim())
    ? null
    : 'A client ID has only digits, letters, dots and dashes, such as 1234567890.1234567890123.';
}

/** The service and client ID to sign in with: a team's set-up link's, else the build's. */
function useSetupLinkFields() {
  const [offered, takeOffered] = useOfferedSetupLink();
  const [link, setLink] = useState<SetupLink | null>(offered);
  // A packaged build may carry the team's client ID (build/RELEASE.md); a link's wins.
  const known = link?.clientId ?? BUILT_IN_SLACK_CLIENT_ID;
  const [baseUrl, setBaseUrl] = useState(link?.baseUrl ?? 'https://slack.com');
  const [clientId, setClientId] = useState(known);
  // A link that arrives while the form is open fills it in, as one that opened the app does.
  if (offered && offered !== link) {
    setLink(offered);
    setBaseUrl(offered.baseUrl);
    setClientId(offered.clientId);
  }
  return { link, known, baseUrl, setBaseUrl, clientId, setClientId, takeOffered };
}

/** A new workspace by Sign in with Slack; named after the team, and only once signed in. */
export function SignInWithSlack(props: {
  cancellable: boolean;
  onSignedIn: (workspaceId: string) => void;
  onUseToken: () => void;
  onCancel: () => void;
}) {
  const { link, known, baseUrl, setBaseUrl, clientId, setClientId, takeOffered } =
    useSetupLinkFields();
  const [attempted, setAttempted] = useState(false);
  const signIn = useSignIn((result) => {
    takeOffered();
    props.onSignedIn(result.workspaceId);
  });
  const urlCheck = checkBaseUrl(baseUrl);
  const urlError = urlCheck.ok ? null : urlCheck.message;
  const idError = clientIdError(clientId, attempted);
  const ready = urlError === null && clientIdError(clientId, true) === null;

  useFocusOnFailure(signIn, 'sign-in-answer');

  const submit = (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (!ready || signIn.waiting) return;
    void signIn.start({ baseUrl: baseUrl.trim(), clientId: clientId.trim() });
  };

  const fields = (
    <SignInFields
      clientId={clientId}
      baseUrl={baseUrl}
      idError={idError}
      urlError={urlError}
      onClientId={setClientId}
      onBaseUrl={setBaseUrl}
    />
  );

  return (
    <form class="card card--new" onSubmit={submit} noValidate aria-labelledby="sign-in-title">
      <h3 id="sign-in-title" class="card__title">
        Sign in with Slack
      </h3>
      {link?.name ? (
        <Notice tone="info">{`Set up from your team’s link for ${link.name}.`}</Notice>
      ) : null}
      <p class="field__help">
        Opens Slack in your browser: approve there and come back. Files you share are posted as you,
        and you never see or paste a token.
      </p>
      {known === '' ? <CreateSlackApp /> : null}
      {known === '' ? <PasteSetupLink /> : null}
      {known === '' ? (
        fields
      ) : (
        // Nothing to ask when the client ID is known: the details stay folded away.
        <details class="sign-in__details" open={!ready}>
          <summary>Service and Slack app</summary>
          {fields}
        </details>
      )}
      {known === '' && ready ? (
        <CopySetupLink link={{ baseUrl: baseUrl.trim(), clientId: clientId.trim() }} />
      ) : null}
      <SignInFailure failure={signIn.failure} error={signIn.error} id="sign-in-answer" />
      {signIn.waiting ? (
        <Waiting onCancel={signIn.cancel} />
      ) : (
        <SignInActions
          cancellable={props.cancellable}
          onCancel={() => {
            takeOffered();
            props.onCancel();
          }}
          onUseToken={props.onUseToken}
        />
      )}
    </form>
  );
}

/** Client ID and base URL of the Slack app to sign in with. */
function SignInFields(props: {
  clientId: string;
  baseUrl: string;
  idError: string | null;
  urlError: string | null;
  onClientId: (value: string) => void;
  onBaseUrl: (value: string) => void;
}) {
  return (
    <div class="field-row">
      <TextField
        id="sign-in-client-id"
        label="Client ID"
        mono
        value={props.clientId}
        placeholder="1234567890.1234567890123"
        error={props.idError}
        onInput={props.onClientId}
      />
      <TextField
        id="sign-in-url"
        label="Base URL"
        grow
        mono
        value={props.baseUrl}
        error={props.urlError}
        onInput={props.onBaseUrl}
      />
    </div>
  );
}

/** Cancel (when there is a workspace to go back to), Use a token, Sign in with Slack. */
function SignInActions(props: {
  cancellable: boolean;
  onCancel: () => void;
  onUseToken: () => void;
}) {
  return (
    <div class="actions">
      {props.cancellable ? (
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
      ) : null}
      <button type="button" class="button" onClick={props.onUseToken}>
        Use a token
      </button>
      <button type="submit" class="button button--primary">
        Sign in with Slack
      </button>
    </div>
  );
}

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
